import type { Db } from '../db/types.ts';

export const SEARCH_FILTERS = ['guide', 'teardown', 'wiki', 'category', 'item', 'info', 'question'] as const;
export type SearchFilter = (typeof SEARCH_FILTERS)[number];

export type SearchHit = { kind: 'guide'; id: number } | { kind: 'category'; id: number };

const escapeLike = (word: string) => `%${word.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * Every hit for `query` in rank order: guides whose title matches first, then other guides (summary,
 * subject, category or a step line of the current revision), then category pages; ties by id.
 * Every word of the query must match somewhere. `visibleTo` limits guides to those the caller may see.
 */
export function search(
  db: Db,
  query: string,
  filters: ReadonlySet<SearchFilter>,
  visibleTo: { all: boolean; userid: number | null },
): SearchHit[] {
  const words = query
    .split(/\s+/)
    .filter((word) => word !== '')
    .slice(0, 8)
    .map(escapeLike);
  if (words.length === 0) return [];
  const wants = (filter: SearchFilter) => filters.size === 0 || filters.has(filter);
  const params = Object.fromEntries(words.map((word, i) => [`w${i}`, word]));
  const hits: SearchHit[] = [];

  const types: string[] = [];
  if (wants('guide')) types.push("r.type <> 'teardown'");
  if (wants('teardown')) types.push("r.type = 'teardown'");
  if (types.length) {
    const everyWord = words
      .map(
        (
          _,
          i,
        ) => `(r.title LIKE @w${i} ESCAPE '\\' OR r.summary LIKE @w${i} ESCAPE '\\' OR r.subject LIKE @w${i} ESCAPE '\\'
          OR r.category LIKE @w${i} ESCAPE '\\'
          OR EXISTS (SELECT 1 FROM guide_revision_steps o JOIN step_lines l USING (step_revisionid)
          WHERE o.revisionid = r.revisionid AND (l.text_raw LIKE @w${i} ESCAPE '\\')))`,
      )
      .join(' AND ');
    const titleRank = words.map((_, i) => `r.title LIKE @w${i} ESCAPE '\\'`).join(' AND ');
    const rows = db
      .prepare(
        `SELECT g.guideid FROM guides g JOIN guide_revisions r ON r.revisionid = g.revisionid
         WHERE (${types.join(' OR ')}) AND ${everyWord}
           AND (@all = 1 OR r.public = 1 OR g.userid = @userid)
         ORDER BY CASE WHEN ${titleRank} THEN 0 ELSE 1 END, g.guideid`,
      )
      .all({ ...params, all: visibleTo.all ? 1 : 0, userid: visibleTo.userid }) as { guideid: number }[];
    for (const row of rows) hits.push({ kind: 'guide', id: row.guideid });
  }

  if (wants('wiki') || wants('category')) {
    const everyWord = words
      .map(
        (_, i) =>
          `(title LIKE @w${i} ESCAPE '\\' OR description LIKE @w${i} ` +
          `ESCAPE '\\' OR contents_raw LIKE @w${i} ESCAPE '\\')`,
      )
      .join(' AND ');
    const rows = db
      .prepare(`SELECT wikiid FROM categories WHERE stub = 0 AND ${everyWord} ORDER BY wikiid`)
      .all(params) as { wikiid: number }[];
    for (const row of rows) hits.push({ kind: 'category', id: row.wikiid });
  }
  // item, info and question: this server has no pages of those kinds, so they add nothing.
  return hits;
}
