import { getCategory } from '../categories/repo.ts';
import { getGuideRow, type GuideRow } from '../guides/repo.ts';
import type { Db } from '../db/types.ts';
import { categoryTitle } from '../workspaces/repo.ts';

/** A document approvals can govern: a guide (with its row) or a wiki, and the category it sits in. */
export interface ApprovalDocument {
  guide: GuideRow | null;
  categoryWikiid: number | null;
}

export function findDocument(db: Db, type: 'guide' | 'wiki', id: number): ApprovalDocument | undefined {
  if (type === 'wiki') return categoryTitle(db, id) === undefined ? undefined : { guide: null, categoryWikiid: id };
  const guide = getGuideRow(db, id);
  return guide ? { guide, categoryWikiid: getCategory(db, guide.category)?.wikiid ?? null } : undefined;
}
