import type Database from 'better-sqlite3';

/**
 * Guides in the technicians' languages (issue 25). The site lists its guides in its own language; a
 * technician who reads another has each guide kept whole fetched again with `langid`.
 * - `guide_translations`: the guide (our GuideDetail JSON, its prerequisites' steps included) in one
 *   language, made from the stored guide of `revisionid`; `fallback` 1 when the site has no translation
 *   (the detail is then the site's own language, marked so). Dropped when the guide is stored again.
 * - `guide_search_translated`: FTS5 over those titles, summaries and steps, one row per translation
 *   (its rowid is the translation's), searched in the technician's language before the site's own.
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE guide_translations (
      guideid INTEGER NOT NULL,
      langid TEXT NOT NULL,
      revisionid INTEGER NOT NULL,
      fallback INTEGER NOT NULL CHECK (fallback IN (0, 1)),
      detail TEXT NOT NULL,
      stored_at INTEGER NOT NULL,
      UNIQUE (guideid, langid)
    ) STRICT;

    CREATE VIRTUAL TABLE guide_search_translated USING fts5(
      title, summary, body, tokenize='porter unicode61 remove_diacritics 2', prefix='2 3 4'
    );
    INSERT INTO guide_search_translated (guide_search_translated, rank) VALUES ('rank', 'bm25(10.0, 4.0, 1.0)');
  `);
}
