import type Database from 'better-sqlite3';

/**
 * What a technician marked on a guide (issue 30): a favourite and a completion, as the site keeps them per
 * user, and a guide they opened here (for "My guides"). A row is the mark as this computer shows it; a toggle
 * not yet on the site waits in the outbox, and a sync keeps those rows as the technician left them.
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE guide_marks (
      technician INTEGER NOT NULL REFERENCES technicians(id) ON DELETE CASCADE,
      mark TEXT NOT NULL CHECK (mark IN ('favorite', 'completed', 'opened')),
      guideid INTEGER NOT NULL,
      at INTEGER NOT NULL,
      PRIMARY KEY (technician, mark, guideid)
    ) STRICT;
    CREATE INDEX guide_marks_guide ON guide_marks(mark, guideid);
  `);
}
