import type Database from 'better-sqlite3';

/**
 * The guide revision the site keeps a session's entry on, as its answers say (worklog/replay/adopt.ts); null
 * while no answer has said. A start sent offline reaches the site after the author revised the guide: the site
 * records the entry on the revised guide while the session here goes on with the one the technician worked from,
 * and nothing said that whoever reads the entry on the site sees steps and fields the technician never saw.
 */
export function up(db: Database.Database): void {
  db.exec('ALTER TABLE work_sessions ADD COLUMN site_guide_revisionid INTEGER;');
}
