import type Database from 'better-sqlite3';

/**
 * Work sessions and the outbox.
 * - `work_sessions`: the local projection of each work-log entry; `entryid` is null until its `start`
 *   has replayed. `server_revisionid` is the entry's revision as the site last told us.
 * - `work_values`: one value per form field (by `field_guid`, stable across form revisions), with the
 *   last value the site confirmed (`server_value`): the base of the three-way merge.
 * - `attachments`: files a technician attached to Image/Video/Document fields, kept until uploaded.
 * - `outbox`: actions in the order taken, one chain per session. An action is written in the same
 *   transaction as its effect on the projection. `unknown_outcome` marks one that may have reached the
 *   site (sent, no answer): it is reconciled before a non-idempotent call is repeated.
 * - `conflicts`: every disagreement with the site, with mine, theirs and base, until the technician settles it.
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE work_sessions (
      id TEXT PRIMARY KEY,
      entryid INTEGER UNIQUE,
      guideid INTEGER NOT NULL,
      guide_revisionid INTEGER NOT NULL,
      guide_title TEXT NOT NULL,
      workorderid TEXT NOT NULL,
      userid INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('started', 'paused', 'suspended', 'complete', 'cancelled')),
      server_revisionid INTEGER,
      started_at INTEGER NOT NULL,
      ended_at INTEGER,
      paused_at INTEGER,
      pause_seconds INTEGER NOT NULL DEFAULT 0,
      active_stepid INTEGER,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX work_sessions_guide ON work_sessions(guideid);

    CREATE TABLE work_values (
      session_id TEXT NOT NULL REFERENCES work_sessions(id) ON DELETE CASCADE,
      field_guid TEXT NOT NULL,
      field_revisionid INTEGER NOT NULL,
      stepid INTEGER NOT NULL,
      value TEXT,
      server_value TEXT,
      attachment_id TEXT,
      PRIMARY KEY (session_id, field_guid)
    ) STRICT;

    CREATE TABLE attachments (
      id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES work_sessions(id) ON DELETE CASCADE,
      file TEXT NOT NULL,
      name TEXT NOT NULL,
      upload_name TEXT NOT NULL,
      mime TEXT NOT NULL,
      bytes INTEGER NOT NULL,
      server_itemid INTEGER,
      created_at INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE outbox (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      chain TEXT NOT NULL,
      kind TEXT NOT NULL,
      payload TEXT NOT NULL,
      acted_at INTEGER NOT NULL,
      state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'in_flight', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL DEFAULT 0,
      unknown_outcome INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX outbox_chain ON outbox(chain, id);

    CREATE TABLE conflicts (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      session_id TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('transition', 'field')),
      field_guid TEXT,
      stepid INTEGER,
      label TEXT NOT NULL,
      mine TEXT,
      theirs TEXT,
      base TEXT,
      message TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      settled TEXT CHECK (settled IN ('mine', 'theirs')),
      settled_at INTEGER
    ) STRICT;
    CREATE INDEX conflicts_open ON conflicts(settled, session_id);
  `);
}
