import type Database from 'better-sqlite3';

/**
 * The site's release notes of a guide (issue 30; Dozuki's `GET /guides/{guideid}/releases`), read with a
 * guide a technician had read in an older revision and shown offline in the changes banner. Whether
 * anyone read a guide is asked per guide fetched: `guide_reads` by guide.
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE guide_releases (
      guideid INTEGER NOT NULL,
      releaseid INTEGER NOT NULL,
      revisionid INTEGER NOT NULL,
      title TEXT NOT NULL,
      notes TEXT NOT NULL,
      released_at INTEGER,
      by_name TEXT,
      PRIMARY KEY (guideid, releaseid)
    ) STRICT;
    CREATE INDEX guide_reads_guide ON guide_reads(guideid, revisionid);
  `);
}
