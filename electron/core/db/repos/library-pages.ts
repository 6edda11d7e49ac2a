import type { LibraryPage, LibraryQuery } from '../../../contract.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';
import { listItemOf, readableBy, THUMBNAIL_STORED, type GuideReader, type GuideRow } from './guide-row.ts';

/**
 * Library pages: the list's filters in title order, fast over 100,000 summaries (a big site keeps every
 * one). Each filter has an index that answers it in title order (migrations 0002, 0008), a page's ids are
 * found from the index alone, a page deep in the list starts after a mark (MARK_EVERY), and totals and
 * marks are found again only when the database changed.
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
    const list = this.#known(clause, params);
    // A page deep in the list starts after the mark before it (a bounded walk), not from the first row.
    const offset = query.offset ?? 0;
    const before = Math.floor(offset / MARK_EVERY);
    const mark = before > 0 ? this.#mark(list, clause, params, before) : null;
    // The page's ids first, from the index alone (skipping `offset` rows reads no table row), then its rows.
    const rows = sql(
      this.db,
      `SELECT g.*, ${THUMBNAIL_STORED} FROM guides g
       WHERE g.guideid IN (SELECT guideid FROM guides g ${clause}${mark ? AFTER_MARK : ''}
         ORDER BY title COLLATE NOCASE, guideid LIMIT ? OFFSET ?)
       ORDER BY title COLLATE NOCASE, guideid`,
    ).all(
      ...params,
      ...(mark ? [mark.title, mark.title, mark.guideid] : []),
      query.limit ?? 50,
      mark ? offset - before * MARK_EVERY : offset,
    ) as GuideRow[];
    return { total: list.n, items: rows.map(listItemOf) };
  }

  /**
   * What is known of a list's conditions since the database last changed: its total (100,000 rows to
   * count) and the marks found in it so far.
   */
  readonly #lists = new Map<string, KnownList>();
  #known(clause: string, params: unknown[]): KnownList {
    const key = JSON.stringify([clause, params]);
    const changes = (sql(this.db, 'SELECT total_changes() AS c').get() as { c: number }).c;
    const known = this.#lists.get(key);
    if (known && known.changes === changes) return known;
    const n = (sql(this.db, `SELECT count(*) AS n FROM guides g ${clause}`).get(...params) as { n: number }).n;
    if (this.#lists.size >= 64) this.#lists.clear();
    const list = { changes, n, marks: new Map<number, Mark>() };
    this.#lists.set(key, list);
    return list;
  }

  /** The last row before row `at` × MARK_EVERY of a list, found from the nearest mark before it. */
  #mark(list: KnownList, clause: string, params: unknown[], at: number): Mark | null {
    const known = list.marks.get(at);
    if (known) return known;
    const from = Math.max(0, ...[...list.marks.keys()].filter((k) => k < at));
    const start = from > 0 ? list.marks.get(from)! : null;
    const mark = sql(
      this.db,
      `SELECT title, guideid FROM guides g ${clause}${start ? AFTER_MARK : ''} ` +
        `ORDER BY title COLLATE NOCASE, guideid LIMIT 1 OFFSET ?`,
    ).get(...params, ...(start ? [start.title, start.title, start.guideid] : []), (at - from) * MARK_EVERY - 1) as
      Mark | undefined;
    if (mark) list.marks.set(at, mark);
    return mark ?? null;
  }
}

interface Mark {
  title: string;
  guideid: number;
}

interface KnownList {
  changes: number;
  n: number;
  /** By k: the row before row k × MARK_EVERY in title order. */
  marks: Map<number, Mark>;
}

/**
 * Pages deep in a list: skipping 90,000 rows of an index costs 3 ms; starting after a mark, the last
 * row before a multiple of MARK_EVERY (each found once, from the nearest mark before it), costs a
 * bounded walk. A range on guides_title's first column, so the index answers it.
 */
const MARK_EVERY = 1000;
const AFTER_MARK = ' AND title COLLATE NOCASE >= ? AND (title COLLATE NOCASE > ? OR guideid > ?)';
