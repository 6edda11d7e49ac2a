import type { SchemaModule } from './types.ts';

/**
 * Release notes of guide revisions (Dozuki's `GET /guides/{guideid}/releases`, dozuki-api-2.0.md §2.6): each
 * names the revision it released. iFixit's API has none (an `ifixit` site answers 404).
 */
export const releasesSchema: SchemaModule = {
  name: 'releases',
  up(db) {
    db.exec(`
      CREATE TABLE guide_releases (
        releaseid INTEGER PRIMARY KEY,
        guideid INTEGER NOT NULL REFERENCES guides(guideid) ON DELETE CASCADE,
        revisionid INTEGER NOT NULL,
        userid INTEGER REFERENCES users(userid) ON DELETE SET NULL,
        title TEXT NOT NULL,
        notes TEXT NOT NULL DEFAULT '',
        type TEXT NOT NULL DEFAULT 'minor',
        init_date INTEGER NOT NULL,
        release_date INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX guide_releases_guide ON guide_releases(guideid, revisionid);
    `);
  },
};
