import type { SchemaModule } from './types.ts';

/** People, sign-in tokens, teams, and the bookkeeping the test hooks read. */
export const coreSchema: SchemaModule = {
  name: 'core',
  up(db) {
    db.exec(`
      CREATE TABLE site_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE users (
        userid INTEGER PRIMARY KEY,
        email TEXT NOT NULL UNIQUE COLLATE NOCASE,
        username TEXT NOT NULL,
        unique_username TEXT UNIQUE COLLATE NOCASE,
        password_hash TEXT NOT NULL,
        join_date INTEGER,
        reputation INTEGER NOT NULL DEFAULT 0,
        privileges TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(privileges)),
        enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
        banned INTEGER,
        image_json TEXT CHECK (image_json IS NULL OR json_valid(image_json))
      ) STRICT;

      CREATE TABLE tokens (
        token_hash TEXT PRIMARY KEY,
        userid INTEGER NOT NULL REFERENCES users(userid) ON DELETE CASCADE,
        created INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX tokens_userid ON tokens(userid);

      CREATE TABLE teams (
        teamid INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        owner INTEGER NOT NULL REFERENCES users(userid),
        privacy TEXT NOT NULL DEFAULT 'public' CHECK (privacy IN ('public', 'private')),
        created INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE team_members (
        teamid INTEGER NOT NULL REFERENCES teams(teamid) ON DELETE CASCADE,
        userid INTEGER NOT NULL REFERENCES users(userid) ON DELETE CASCADE,
        joined INTEGER NOT NULL,
        PRIMARY KEY (teamid, userid)
      ) STRICT;
      CREATE INDEX team_members_userid ON team_members(userid);

      CREATE TABLE audit_log (
        auditid INTEGER PRIMARY KEY,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        entity TEXT NOT NULL,
        entity_id TEXT NOT NULL,
        userid INTEGER,
        time INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE view_history (
        viewid INTEGER PRIMARY KEY,
        userid INTEGER NOT NULL REFERENCES users(userid) ON DELETE CASCADE,
        doc_type TEXT NOT NULL CHECK (doc_type IN ('GUIDE', 'WIKI')),
        docid TEXT NOT NULL,
        date INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX view_history_user ON view_history(userid, date);
      CREATE INDEX view_history_doc ON view_history(doc_type, docid, date);
    `);
  },
};
