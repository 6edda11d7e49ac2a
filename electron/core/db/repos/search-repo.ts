import type { SearchResults } from '../../../contract.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';
import { listItemOf, readableBy, THUMBNAIL_STORED, type GuideReader, type GuideRow } from './guide-row.ts';

/** The search total stops counting here (the list pages through the first results anyway). */
export const SEARCH_COUNT_CAP = 1000;

/** FTS5's `rank` as migration 0009 sets it: bm25 weighing title 10, summary 4, steps 1. */
const BM25 = 'bm25(guide_search, 10.0, 4.0, 1.0)';

/**
 * Where the guides ranked for a search that matches more than SEARCH_COUNT_CAP are taken from, in turn:
 * every word in the title, then in the title or summary, then anywhere (FTS5 column filters).
 */
const POOL_COLUMNS = ['{title}', '{title summary}', null] as const;

/** Builds an FTS5 query from what a technician typed: every word must match, the last one as a prefix. */
export function ftsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return null;
  return words.map((word, index) => `"${word}"${index === words.length - 1 ? '*' : ''}`).join(' ');
}

type Readable = { clause: string; params: readonly unknown[] };
type Found = Omit<SearchResults, 'source'>;
type Row = GuideRow & { snippet: string | null };

/** The local full-text index (FTS5) over guide titles, summaries and step text, one row per guide. */
export class SearchRepo {
  constructor(private readonly db: Db) {}

  /**
   * The guides this reader may see that match what was typed, best first (bm25 weighing title 10,
   * summary 4, steps 1). Up to SEARCH_COUNT_CAP matches, all of them are ranked. A common word over a big
   * library matches tens of thousands, and ranking each costs a lookup of its length (9 ms for 12,000
   * over 100,000 summaries): then only SEARCH_COUNT_CAP of them are ranked, those with every word in the
   * title first (the pool, POOL_COLUMNS), the same for every page, so paging through them stays consistent.
   */
  search(text: string, limit: number, offset: number, reader: GuideReader | null, langid: string | null = null): Found {
    if (langid !== null) return this.#inLanguage(text, limit, offset, reader, langid);
    return this.#search(text, limit, offset, reader, null);
  }

  /**
   * A search in the technician's language: the guides read in it first (their own titles and text, best
   * first), then the others in the site's language, best first; the total is both counts.
   */
  #inLanguage(text: string, limit: number, offset: number, reader: GuideReader | null, langid: string): Found {
    const match = ftsQuery(text);
    if (!match) return { total: 0, items: [] };
    const readable = readableBy(reader, 'g');
    const from = `guide_search_translated JOIN guide_translations t ON t.rowid = guide_search_translated.rowid
      JOIN guides g ON g.guideid = t.guideid
      WHERE guide_search_translated MATCH ? AND t.langid = ? AND ${readable.clause}`;
    const count = sql(this.db, `SELECT count(*) AS n FROM (SELECT 1 FROM ${from} LIMIT ${SEARCH_COUNT_CAP})`);
    const translated = (count.get(match, langid, ...readable.params) as { n: number }).n;
    const rows = sql(
      this.db,
      `SELECT g.*, ${THUMBNAIL_STORED}, json_extract(t.detail, '$.title') AS translated_title,
         snippet(guide_search_translated, -1, '', '', '…', 12) AS snippet
       FROM ${from} ORDER BY guide_search_translated.rank LIMIT ? OFFSET ?`,
    ).all(match, langid, ...readable.params, limit, offset) as (Row & { translated_title: string })[];
    const items = rows.map((row) => ({ ...listItemOf(row), title: row.translated_title, snippet: row.snippet }));
    const [more, skip] = [Math.max(0, limit - items.length), Math.max(0, offset - translated)];
    const rest = this.#search(text, more, skip, reader, langid);
    return { total: translated + rest.total, items: [...items, ...rest.items] };
  }

  /** The site's own language; with `except`, leaving out the guides found in that language (#inLanguage has them). */
  #search(text: string, limit: number, offset: number, reader: GuideReader | null, except: string | null): Found {
    const match = ftsQuery(text);
    if (!match) return { total: 0, items: [] };
    const found = readableBy(reader, 'g');
    // A guide the search in that language found is listed there, once; the others, translated or not, by their
    // words in the site's language: offline in German, the hose guide was not found by the English title the
    // library lists it under (every translated guide was left out of this part).
    const foundInLanguage = `g.guideid NOT IN (SELECT t.guideid FROM guide_search_translated
      JOIN guide_translations t ON t.rowid = guide_search_translated.rowid
      WHERE guide_search_translated MATCH ? AND t.langid = ?)`;
    const readable: Readable =
      except === null
        ? found
        : { clause: `${found.clause} AND ${foundInLanguage}`, params: [...found.params, match, except] };
    // Counting every hit of a common word costs as much as ranking them: the total is capped.
    const total = (
      sql(
        this.db,
        `SELECT count(*) AS n FROM (SELECT 1 FROM guide_search JOIN guides g ON g.guideid = guide_search.rowid
           WHERE guide_search MATCH ? AND ${readable.clause} LIMIT ${SEARCH_COUNT_CAP})`,
      ).get(match, ...readable.params) as { n: number }
    ).n;
    if (limit === 0) return { total, items: [] };
    const rows =
      total < SEARCH_COUNT_CAP
        ? (sql(
            this.db,
            `SELECT g.*, ${THUMBNAIL_STORED}, snippet(guide_search, -1, '', '', '…', 12) AS snippet
             FROM guide_search JOIN guides g ON g.guideid = guide_search.rowid
             WHERE guide_search MATCH ? AND ${readable.clause} ORDER BY guide_search.rank LIMIT ? OFFSET ?`,
          ).all(match, ...readable.params, limit, offset) as Row[])
        : // bm25 by hand: ORDER BY rank would have FTS5 rank every match before the pool filters them.
          (sql(
            this.db,
            `SELECT g.*, ${THUMBNAIL_STORED}, snippet(guide_search, -1, '', '', '…', 12) AS snippet
             FROM guide_search JOIN guides g ON g.guideid = guide_search.rowid
             WHERE guide_search MATCH ? AND +guide_search.rowid IN (SELECT value FROM json_each(?))
             ORDER BY ${BM25}, guide_search.rowid LIMIT ? OFFSET ?`,
          ).all(match, JSON.stringify(this.#pool(match, readable)), limit, offset) as Row[]);
    return { total, items: rows.map((row) => ({ ...listItemOf(row), snippet: row.snippet })) };
  }

  /** The SEARCH_COUNT_CAP readable guides ranked for a search with more matches (POOL_COLUMNS), by id. */
  #pool(match: string, readable: Readable): number[] {
    const pool = new Set<number>();
    const found = sql(
      this.db,
      `SELECT guide_search.rowid AS id FROM guide_search JOIN guides g ON g.guideid = guide_search.rowid
       WHERE guide_search MATCH ? AND ${readable.clause} LIMIT ${SEARCH_COUNT_CAP}`,
    ).pluck();
    for (const columns of POOL_COLUMNS) {
      for (const id of found.all(columns ? `${columns} : (${match})` : match, ...readable.params) as number[]) {
        if (pool.size < SEARCH_COUNT_CAP) pool.add(id);
      }
      if (pool.size >= SEARCH_COUNT_CAP) break;
    }
    return [...pool];
  }

  replace(guideid: number, text: { title: string; summary: string; body: string }): void {
    this.remove(guideid);
    sql(this.db, 'INSERT INTO guide_search (rowid, title, summary, body) VALUES (?, ?, ?, ?)').run(
      guideid,
      text.title,
      text.summary,
      text.body,
    );
  }

  remove(guideid: number): void {
    sql(this.db, 'DELETE FROM guide_search WHERE rowid = ?').run(guideid);
  }
}
