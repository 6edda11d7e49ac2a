import type Database from 'better-sqlite3';

/**
 * When this computer learned that the site no longer has a session (its entry deleted there: a sync's read of
 * it answered 404, worklog/handed-over-look.ts): unix seconds, null while the site has it. The session is
 * kept here read-only with its values, and nothing more is sent for it. It stayed "Handed over", with a Take it
 * back whose assume the site could only refuse.
 */
export function up(db: Database.Database): void {
  db.exec('ALTER TABLE work_sessions ADD COLUMN removed_on_site INTEGER;');
}
