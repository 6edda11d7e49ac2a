import type { SchemaModule } from './types.ts';

/**
 * Workspaces (reference 2.7, 4.3): a root category of the content side's `categories` table with an access
 * status. Private workspaces are reachable by their owner, admins, and the users and teams granted here.
 */
export const workspacesSchema: SchemaModule = {
  name: 'workspaces',
  up(db) {
    db.exec(`
      CREATE TABLE workspaces (
        wikiid INTEGER PRIMARY KEY REFERENCES categories(wikiid) ON DELETE CASCADE,
        workspaceRevisionid INTEGER NOT NULL UNIQUE,
        status TEXT NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
        privacyStatus TEXT NOT NULL CHECK (privacyStatus IN ('public', 'private')),
        userid INTEGER NOT NULL REFERENCES users(userid),
        created INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE workspace_access (
        wikiid INTEGER NOT NULL REFERENCES workspaces(wikiid) ON DELETE CASCADE,
        userid INTEGER REFERENCES users(userid) ON DELETE CASCADE,
        teamid INTEGER REFERENCES teams(teamid) ON DELETE CASCADE,
        CHECK ((userid IS NULL) <> (teamid IS NULL)),
        UNIQUE (wikiid, userid, teamid)
      ) STRICT;
    `);
  },
};
