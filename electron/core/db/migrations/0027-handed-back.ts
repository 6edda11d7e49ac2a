import type Database from 'better-sqlite3';

/**
 * A session handed over here, taken over on the site by a colleague and handed back (suspended again) by them:
 * who, when, and the values they changed, as a sync learned it (worklog/handed-back.ts). It stayed "Handed over"
 * with no word of it, the step showing values the site no longer had. JSON on the session row, covered by its
 * checksum and the work journal like the rest of it.
 */
export function up(db: Database.Database): void {
  db.exec(
    `ALTER TABLE work_sessions ADD COLUMN handed_back TEXT CHECK (handed_back IS NULL OR json_valid(handed_back));`,
  );
}
