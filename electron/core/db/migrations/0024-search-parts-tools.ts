import type Database from 'better-sqlite3';

/**
 * The search index holds a kept guide's parts and tools too (library/search-text.ts): the guides kept before
 * have theirs added from their stored detail, in the site's language and in each translation. A detail that
 * is not valid JSON (damaged) is left as it was: the next sync stores the guide again.
 */
const ITEM = `coalesce(json_extract(j.value, '$.text'), '')
  || coalesce(' (' || nullif(json_extract(j.value, '$.notes'), '') || ')', '') || ';'`;
/** As search-text.ts writes them: "Compressor oil, ISO 100 (about 40 oz);", one a line. */
const ITEMS = (detail: string) => `(
  SELECT group_concat(item, char(10)) FROM (
    SELECT ${ITEM} AS item FROM json_each(${detail}, '$.parts') j
    UNION ALL
    SELECT ${ITEM} AS item FROM json_each(${detail}, '$.tools') j
  ) WHERE item <> ';')`;

export function up(db: Database.Database): void {
  const stored = `(SELECT r.detail FROM guides g JOIN guide_revisions r
    ON r.guideid = g.guideid AND r.revisionid = g.stored_revisionid
    WHERE g.guideid = guide_search.rowid AND json_valid(r.detail))`;
  db.exec(`UPDATE guide_search SET body = body || coalesce(char(10) || ${ITEMS(stored)}, '')
    WHERE ${stored} IS NOT NULL`);
  const translated = `(SELECT t.detail FROM guide_translations t
    WHERE t.rowid = guide_search_translated.rowid AND json_valid(t.detail))`;
  db.exec(`UPDATE guide_search_translated SET body = body || coalesce(char(10) || ${ITEMS(translated)}, '')
    WHERE ${translated} IS NOT NULL`);
}
