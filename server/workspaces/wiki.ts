import { imageJson } from '../content/media-json.ts';
import type { Db } from '../db/types.ts';
import type { CategoryRow } from './repo.ts';

const categoryUrl = (origin: string, title: string) => `${origin}/c/${encodeURIComponent(title.replace(/ /g, '_'))}`;

/**
 * Wiki detail of reference 2.8 for the CATEGORY a workspace is. Lists the reference names but this server
 * does not keep (authors, flags, related wikis, ...) are empty; `guides` is left to `/categories/{name}`.
 */
export function categoryWikiJson(db: Db, category: CategoryRow, origin: string, canEdit: boolean) {
  const image = category.imageid === null
    ? null
    : (db.prepare('SELECT imageid, guid FROM images WHERE imageid = ?').get(category.imageid) as { imageid: number; guid: string } | undefined);
  const children = db
    .prepare('SELECT wikiid, title, display_title FROM categories WHERE parentid = ? ORDER BY display_title, wikiid')
    .all(category.wikiid) as { wikiid: number; title: string; display_title: string }[];
  const url = categoryUrl(origin, category.title);
  return {
    url,
    fullUrl: url,
    editUrl: `${origin}/Edit/Category/${encodeURIComponent(category.title)}`,
    wikiid: category.wikiid,
    langid: 'en',
    namespace: 'CATEGORY',
    title: category.title,
    revisionid: category.revisionid,
    contents_raw: category.contents_raw,
    contents_json: { type: 'doc', content: [] as unknown[] },
    contents_rendered: category.contents_rendered,
    can_edit: canEdit,
    author: [] as unknown[],
    flags: [] as unknown[],
    image: image ? imageJson(origin, image) : null,
    documents: [] as unknown[],
    display_title: category.display_title,
    ancestors: [] as unknown[],
    description: category.description,
    children: children.map((child) => ({
      wikiid: child.wikiid,
      namespace: 'CATEGORY',
      title: child.title,
      display_title: child.display_title,
      url: categoryUrl(origin, child.title),
    })),
    category_lists: [] as unknown[],
    featured_guides: [] as unknown[],
    guides: [] as unknown[],
    favorited_guide_ids: [] as number[],
    related_wikis: [] as unknown[],
    repairability_score: null,
    category_info: [] as unknown[],
    source_revisionid: null,
    info: [] as unknown[],
  };
}
