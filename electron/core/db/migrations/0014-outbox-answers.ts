import type Database from 'better-sqlite3';

/**
 * What the outbox learns from the site's answers (issue 24):
 * - `refusals`, `refused_since`: how many times in a row the site itself answered an action with an error
 *   (a 5xx), since when (unix seconds). Only answers count: a request that got none (the network away)
 *   clears them, so a day offline is waiting, not stuck (outbox/backoff.ts `isStuck`).
 * - `unknown_since`: when the send that may have landed went (local ms). A start or an upload with no
 *   answer is looked for on the site for a while after it before it is ever sent again (handlers/).
 * - `conflicts.kind` may be `notice`: something Fieldguide did on the site for the technician (a second
 *   copy of a start or an upload that a slow site made, removed), shown until they have read it.
 *   SQLite cannot change a CHECK in place: the table is made again with its rows, ids and indexes.
 * Actions an earlier version marked stuck keep their mark; coming back online retries them (runner.ts).
 */
export function up(db: Database.Database): void {
  db.exec(`
    ALTER TABLE outbox ADD COLUMN refusals INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE outbox ADD COLUMN refused_since INTEGER;
    ALTER TABLE outbox ADD COLUMN unknown_since INTEGER;

    CREATE TABLE conflicts_new (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      session_id TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('transition', 'field', 'notice')),
      field_guid TEXT,
      stepid INTEGER,
      label TEXT NOT NULL,
      mine TEXT,
      theirs TEXT,
      base TEXT,
      message TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      settled TEXT CHECK (settled IN ('mine', 'theirs')),
      settled_at INTEGER,
      technician INTEGER REFERENCES technicians(id)
    ) STRICT;
    INSERT INTO conflicts_new (id, session_id, kind, field_guid, stepid, label, mine, theirs, base, message, created_at,
        settled, settled_at, technician)
      SELECT id, session_id, kind, field_guid, stepid, label, mine, theirs, base, message, created_at,
        settled, settled_at, technician FROM conflicts;
    DROP TABLE conflicts;
    ALTER TABLE conflicts_new RENAME TO conflicts;
    CREATE INDEX conflicts_open ON conflicts(settled, session_id);
    CREATE INDEX conflicts_technician ON conflicts(technician, settled);
  `);
}
