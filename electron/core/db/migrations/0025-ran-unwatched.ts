import type Database from 'better-sqlite3';

/**
 * A stretch in which a running session went on counting while Fieldguide was closed or the laptop slept
 * (worklog/unwatched.ts): the night a technician left a job running counted as work, with no word. JSON
 * `{ from, to }` (the site's clock) on the session row until its technician answers, covered by the row's
 * checksum and the work journal like the rest of it.
 */
export function up(db: Database.Database): void {
  db.exec(
    `ALTER TABLE work_sessions ADD COLUMN ran_unwatched TEXT
       CHECK (ran_unwatched IS NULL OR json_valid(ran_unwatched));`,
  );
}
