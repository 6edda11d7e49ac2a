import type Database from 'better-sqlite3';

/**
 * The technician's work made checkable (db/row-sums.ts, db/work-journal.ts):
 * - `row_sum` on every table of the work (and the settings: the site, who works now): a checksum of the
 *   row's other columns, kept by the connection's triggers and checked when a row is read and at start.
 *   Filled in after the migrations run.
 * - `work_journal`: one row counting the changes made to the work (`seq`), which the journal file records
 *   with each write. A database whose count is behind its journal's went back to an earlier state (a log
 *   lost or damaged); one ahead of it has changes the journal was not written with yet (a crash).
 */
export function up(db: Database.Database): void {
  db.exec(`
    ALTER TABLE settings ADD COLUMN row_sum INTEGER;
    ALTER TABLE technicians ADD COLUMN row_sum INTEGER;
    ALTER TABLE work_sessions ADD COLUMN row_sum INTEGER;
    ALTER TABLE work_values ADD COLUMN row_sum INTEGER;
    ALTER TABLE attachments ADD COLUMN row_sum INTEGER;
    ALTER TABLE outbox ADD COLUMN row_sum INTEGER;
    ALTER TABLE conflicts ADD COLUMN row_sum INTEGER;
    ALTER TABLE quiz_attempts ADD COLUMN row_sum INTEGER;
    CREATE TABLE work_journal (
      id INTEGER PRIMARY KEY CHECK (id = 0),
      seq INTEGER NOT NULL,
      row_sum INTEGER
    ) STRICT;
    INSERT INTO work_journal (id, seq) VALUES (0, 0);
  `);
}
