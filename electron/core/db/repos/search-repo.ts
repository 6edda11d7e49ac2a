import type { SearchResults } from '../../../contract.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';
import { listItemOf, readableBy, THUMBNAIL_STORED, type GuideReader, type GuideRow } from './guide-row.ts';

/** The search total stops counting here (the list pages through the first results anyway). */
export const SEARCH_COUNT_CAP = 1000;

/** Builds an FTS5 query from what a technician typed: every word must match, the last one as a prefix. */
export function ftsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return null;
  return words.map((word, index) => `"${word}"${index === words.length - 1 ? '*' : ''}`).join(' ');
}

/** The local full-text index (FTS5) over guide titles, summaries and step text, one row per guide. */
export class SearchRepo {
  constructor(private readonly db: Db) {}

  /** The guides this reader may see that match what was typed, best first (`rank`: bm25 weighing title 10, summary 4, steps 1; migration 0008). */
  search(text: string, limit: number, offset: number, reader: GuideReader | null): Omit<SearchResults, 'source'> {
    const match = ftsQuery(text);
    if (!match) return { total: 0, items: [] };
    const readable = readableBy(reader, 'g');
    // Counting every hit of a common word costs as much as ranking them: the total is capped.
    const total = (
      sql(
        this.db,
        `SELECT count(*) AS n FROM (SELECT 1 FROM guide_search JOIN guides g ON g.guideid = guide_search.rowid
           WHERE guide_search MATCH ? AND ${readable.clause} LIMIT ${SEARCH_COUNT_CAP})`,
      ).get(match, ...readable.params) as { n: number }
    ).n;
    const rows = sql(
      this.db,
      `SELECT g.*, ${THUMBNAIL_STORED}, snippet(guide_search, -1, '', '', '…', 12) AS snippet
       FROM guide_search JOIN guides g ON g.guideid = guide_search.rowid
       WHERE guide_search MATCH ? AND ${readable.clause} ORDER BY guide_search.rank LIMIT ? OFFSET ?`,
    ).all(match, ...readable.params, limit, offset) as (GuideRow & { snippet: string | null })[];
    return { total, items: rows.map((row) => ({ ...listItemOf(row), snippet: row.snippet })) };
  }

  replace(guideid: number, text: { title: string; summary: string; body: string }): void {
    this.remove(guideid);
    sql(this.db, 'INSERT INTO guide_search (rowid, title, summary, body) VALUES (?, ?, ?, ?)').run(guideid, text.title, text.summary, text.body);
  }

  remove(guideid: number): void {
    sql(this.db, 'DELETE FROM guide_search WHERE rowid = ?').run(guideid);
  }
}
