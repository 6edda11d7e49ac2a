import type Database from 'better-sqlite3';

/**
 * The technician's sign-off of a finished session (issue 28): who, how (typed or drawn), when, and where
 * it went (a step-data field of the form, or kept on this laptop), as JSON on the session row, so that
 * the row's checksum and the work journal cover it like the rest of the session.
 */
export function up(db: Database.Database): void {
  db.exec(`ALTER TABLE work_sessions ADD COLUMN sign_off TEXT CHECK (sign_off IS NULL OR json_valid(sign_off));`);
}
