import type { SchemaModule } from './types.ts';

/**
 * Guides in more languages than the site's own (`langid`, reference "translation glossary"): a
 * translation overlays the guide's texts, title to step lines, as iFixit answers `?langid=` with the
 * translated guide. Steps and media stay the source guide's.
 */
export const translationsSchema: SchemaModule = {
  name: 'translations',
  up(db) {
    db.exec(`
      CREATE TABLE guide_translations (
        guideid INTEGER NOT NULL REFERENCES guides(guideid) ON DELETE CASCADE,
        langid TEXT NOT NULL CHECK (length(langid) = 2 AND langid = lower(langid)),
        title TEXT NOT NULL,
        summary TEXT NOT NULL DEFAULT '',
        introduction_raw TEXT NOT NULL DEFAULT '',
        -- stepid → {title, lines: [text_raw, ...]}: the lines in the step's order
        steps TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(steps)),
        PRIMARY KEY (guideid, langid)
      ) STRICT;
    `);
  },
};
