import type Database from 'better-sqlite3';

/**
 * A library of 100,000 summaries (a big site's first sync keeps every one): its pages and filters stay
 * fast when each is answered from an index, in title order, without a sort and without reading the
 * table for the rows a page skips.
 * - `guides_title` also holds what the page's conditions read (who may read a guide, whether it is
 *   stored, its type): a page deep in the list walks the index only, and reads the table for its 50 rows.
 * - `guides_type` and `guides_category`: a page of one type or one category, in title order, and its
 *   count, from the index alone (the category tree's counts too).
 *   `guides_stored`: the guides kept whole, in title order (a handful among 100,000 summaries).
 * - The search ranks by FTS5's own `rank`, set to the weights the search always used (title 10, summary
 *   4, steps 1): FTS5 then sorts the matches itself, three times faster than ORDER BY bm25(...).
 */
export function up(db: Database.Database): void {
  db.exec(`
    DROP INDEX guides_title;
    CREATE INDEX guides_title ON guides(title COLLATE NOCASE, guideid, public, author_userid, stored_revisionid, type);
    CREATE INDEX guides_type ON guides(type, title COLLATE NOCASE, guideid, public, author_userid);
    DROP INDEX guides_category;
    CREATE INDEX guides_category ON guides(category, title COLLATE NOCASE, guideid, public, author_userid);
    CREATE INDEX guides_stored ON guides(title COLLATE NOCASE, guideid) WHERE stored_revisionid IS NOT NULL;
    INSERT INTO guide_search (guide_search, rank) VALUES ('rank', 'bm25(10.0, 4.0, 1.0)');
  `);
}
