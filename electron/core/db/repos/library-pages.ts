import type { LibraryPage, LibraryQuery } from '../../../contract.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';
import { listItemOf, readableBy, THUMBNAIL_STORED, type GuideReader, type GuideRow } from './guide-row.ts';

/**
 * Library pages: the list's filters in title order, fast over 100,000 summaries (a big site keeps every
 * one). Each filter has an index that answers it in title order (migrations 0002, 0008), a page's ids are
 * found from the index alone, and totals are counted again only when the database changed.
 */
export class LibraryPages {
  constructor(private readonly db: Db) {}

  /** A page of the guides this reader may see. */
  page(query: LibraryQuery, categories: string[] | null, reader: GuideReader | null): LibraryPage {
    const readable = readableBy(reader, 'g');
    const where: string[] = [readable.clause];
    const params: unknown[] = [...readable.params];
    if (categories) {
      where.push(`category IN (SELECT value FROM json_each(?))`);
      params.push(JSON.stringify(categories));
    }
    if (query.type) {
      where.push('type = ?');
      params.push(query.type);
    }
    if (query.tag) {
      where.push('guideid IN (SELECT guideid FROM guide_tags WHERE tag = ?)');
      params.push(query.tag);
    }
    if (query.offlineOnly) where.push('stored_revisionid IS NOT NULL');
    if (query.guideids) {
      where.push('guideid IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(query.guideids));
    }
    const clause = `WHERE ${where.join(' AND ')}`;
    const total = this.#counted(clause, params);
    // The page's ids first, from the index alone (skipping `offset` rows reads no table row), then its rows.
    const rows = sql(
      this.db,
      `SELECT g.*, ${THUMBNAIL_STORED} FROM guides g
       WHERE g.guideid IN (SELECT guideid FROM guides g ${clause} ORDER BY title COLLATE NOCASE, guideid LIMIT ? OFFSET ?)
       ORDER BY title COLLATE NOCASE, guideid`,
    ).all(...params, query.limit ?? 50, query.offset ?? 0) as GuideRow[];
    return { total, items: rows.map(listItemOf) };
  }

  /** Totals of the list's conditions, counted again only when the database changed (100,000 rows to count). */
  readonly #counts = new Map<string, { changes: number; n: number }>();
  #counted(clause: string, params: unknown[]): number {
    const key = JSON.stringify([clause, params]);
    const changes = (sql(this.db, 'SELECT total_changes() AS c').get() as { c: number }).c;
    const known = this.#counts.get(key);
    if (known && known.changes === changes) return known.n;
    const n = (sql(this.db, `SELECT count(*) AS n FROM guides g ${clause}`).get(...params) as { n: number }).n;
    if (this.#counts.size >= 64) this.#counts.clear();
    this.#counts.set(key, { changes, n });
    return n;
  }
}
