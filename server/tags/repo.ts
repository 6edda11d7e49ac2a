import type { Db } from '../db/types.ts';

type Target = { guideid: number } | { wikiid: number };

function tagId(db: Db, name: string): number {
  db.prepare('INSERT INTO tags (name) VALUES (?) ON CONFLICT (name) DO NOTHING').run(name);
  return (db.prepare('SELECT tagid FROM tags WHERE name = ?').get(name) as { tagid: number }).tagid;
}

/** Tags a guide or a category wiki, creating the tag if needed. Returns whether anything changed. */
export function addTag(db: Db, target: Target, name: string): boolean {
  const tagid = tagId(db, name.trim());
  const result =
    'guideid' in target
      ? db.prepare('INSERT OR IGNORE INTO guide_tags (guideid, tagid) VALUES (?, ?)').run(target.guideid, tagid)
      : db.prepare('INSERT OR IGNORE INTO category_tags (wikiid, tagid) VALUES (?, ?)').run(target.wikiid, tagid);
  return result.changes > 0;
}

export function removeTag(db: Db, target: Target, name: string): boolean {
  const row = db.prepare('SELECT tagid FROM tags WHERE name = ?').get(name.trim()) as { tagid: number } | undefined;
  if (!row) return false;
  const result =
    'guideid' in target
      ? db.prepare('DELETE FROM guide_tags WHERE guideid = ? AND tagid = ?').run(target.guideid, row.tagid)
      : db.prepare('DELETE FROM category_tags WHERE wikiid = ? AND tagid = ?').run(target.wikiid, row.tagid);
  return result.changes > 0;
}

export function guideTags(db: Db, guideid: number): string[] {
  return (
    db
      .prepare('SELECT t.name FROM guide_tags g JOIN tags t USING (tagid) WHERE g.guideid = ? ORDER BY t.name')
      .all(guideid) as { name: string }[]
  ).map((row) => row.name);
}

export function categoryTags(db: Db, wikiid: number): string[] {
  return (
    db
      .prepare('SELECT t.name FROM category_tags c JOIN tags t USING (tagid) WHERE c.wikiid = ? ORDER BY t.name')
      .all(wikiid) as { name: string }[]
  ).map((row) => row.name);
}

/** `GET /tags`: names ordered by tagid (reference 4.4). */
export function listTags(db: Db, paging: { offset: number; limit: number; order: 'ASC' | 'DESC' }): string[] {
  return (
    db
      .prepare(`SELECT name FROM tags ORDER BY tagid ${paging.order} LIMIT ? OFFSET ?`)
      .all(paging.limit, paging.offset) as { name: string }[]
  ).map((row) => row.name);
}
