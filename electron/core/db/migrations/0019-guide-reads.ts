import type Database from 'better-sqlite3';

/**
 * The revision of each guide a technician last read or worked (issue 30): a guide revised since shows
 * what changed. That revision is kept (`revision_pins`, reason `read:<technician>`) until they have seen
 * the change, so the comparison is made offline from the two stored revisions.
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE guide_reads (
      technician INTEGER NOT NULL,
      guideid INTEGER NOT NULL,
      revisionid INTEGER NOT NULL,
      read_at INTEGER NOT NULL,
      PRIMARY KEY (technician, guideid)
    ) STRICT;
  `);
}
