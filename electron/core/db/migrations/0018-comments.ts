import type Database from 'better-sqlite3';

/**
 * Comments a technician wrote here (issue 30), each theirs (`technician`): the text as it stands, and
 * once the site took it its `commentid` and when (`posted_at`, the site's clock: its 5 minutes to edit).
 * `deleted`: a delete is queued or done, so the site's copy is no longer shown here.
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE my_comments (
      id TEXT PRIMARY KEY,
      technician INTEGER NOT NULL,
      guideid INTEGER NOT NULL,
      context TEXT NOT NULL CHECK (context IN ('guide', 'step')),
      contextid INTEGER NOT NULL,
      parentid INTEGER,
      text TEXT NOT NULL,
      written_at INTEGER NOT NULL,
      commentid INTEGER,
      posted_at INTEGER,
      deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
    ) STRICT;
    CREATE INDEX my_comments_guide ON my_comments(technician, guideid);
  `);
}
