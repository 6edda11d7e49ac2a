import type Database from 'better-sqlite3';

/**
 * A value the technician saved here that another computer or the site replaced since (worklog/replay/learn-site.ts):
 * what they had saved and when this computer learned it, as JSON `{"was":…,"at":…}`, until they save the field
 * again here. A sync took the other value into the step with no word: the technician read a reading that was not
 * theirs as their own. On the value's row, covered by its checksum and the work journal like the rest of it.
 */
export function up(db: Database.Database): void {
  db.exec(
    `ALTER TABLE work_values ADD COLUMN changed_elsewhere TEXT
       CHECK (changed_elsewhere IS NULL OR json_valid(changed_elsewhere));`,
  );
}
