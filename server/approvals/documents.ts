import type { Db } from '../db/types.ts';

/** What approvals need to know of a guide or a category (the content side owns these tables). */
export interface ApprovalDocument {
  /** The guide's author; null for wikis. */
  ownerid: number | null;
  /** The category the document sits in (a guide's category, or the category itself). */
  categoryWikiid: number | null;
}

export function findDocument(db: Db, type: 'guide' | 'wiki', id: number): ApprovalDocument | undefined {
  if (type === 'wiki') {
    const row = db.prepare('SELECT wikiid FROM categories WHERE wikiid = ?').get(id) as { wikiid: number } | undefined;
    return row ? { ownerid: null, categoryWikiid: row.wikiid } : undefined;
  }
  const row = db
    .prepare(
      `SELECT g.userid, c.wikiid FROM guides g JOIN guide_revisions r ON r.revisionid = g.revisionid
       LEFT JOIN categories c ON c.title = r.category WHERE g.guideid = ?`,
    )
    .get(id) as { userid: number; wikiid: number | null } | undefined;
  return row ? { ownerid: row.userid, categoryWikiid: row.wikiid } : undefined;
}

export interface GuideHead {
  title: string;
  image: { imageid: number; guid: string } | null;
}

/** The current title and main image of a guide, for approval requests. */
export function guideHead(db: Db, guideid: number): GuideHead | undefined {
  const row = db
    .prepare(
      `SELECT r.title, i.imageid, i.guid FROM guides g JOIN guide_revisions r ON r.revisionid = g.revisionid
       LEFT JOIN images i ON i.imageid = r.imageid WHERE g.guideid = ?`,
    )
    .get(guideid) as { title: string; imageid: number | null; guid: string | null } | undefined;
  if (!row) return undefined;
  return { title: row.title, image: row.imageid !== null && row.guid !== null ? { imageid: row.imageid, guid: row.guid } : null };
}
