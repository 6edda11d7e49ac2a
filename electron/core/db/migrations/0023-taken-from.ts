import type Database from 'better-sqlite3';

/**
 * Whom a session was taken over from, and when they handed it over (issue 29's walks): the report of a
 * session taken over named only the one who finished it, under the values the first had recorded. JSON on
 * the session row, covered by its checksum and the work journal like the rest of it.
 */
export function up(db: Database.Database): void {
  db.exec(`ALTER TABLE work_sessions ADD COLUMN taken_from TEXT CHECK (taken_from IS NULL OR json_valid(taken_from));`);
}
