import type { Db } from '../db/types.ts';
import type { UserRow } from '../users/repo.ts';
import { canViewGuide } from '../guides/access.ts';
import { guideSummaryJson } from '../guides/json.ts';
import { listGuides } from '../guides/repo.ts';
import { imageJson } from '../media/json.ts';
import { categoryTags } from '../tags/repo.ts';

export interface CategoryRow {
  wikiid: number;
  title: string;
  display_title: string;
  parentid: number | null;
  description: string;
  contents_raw: string;
  contents_rendered: string;
  imageid: number | null;
  image_guid: string | null;
  revisionid: number;
  stub: number;
  modified_date: number;
}

const SELECT = 'SELECT c.*, i.guid AS image_guid FROM categories c LEFT JOIN images i ON i.imageid = c.imageid';

export function allCategories(db: Db, includeStubs = false): CategoryRow[] {
  return db
    .prepare(`${SELECT} ${includeStubs ? '' : 'WHERE c.stub = 0'} ORDER BY c.title COLLATE NOCASE`)
    .all() as CategoryRow[];
}

export function getCategory(db: Db, title: string): CategoryRow | undefined {
  return db.prepare(`${SELECT} WHERE c.title = ?`).get(title) as CategoryRow | undefined;
}

export type Hierarchy = { [title: string]: Hierarchy | null };

/** Titles nested under their parents; a category without children maps to null (as real sites answer). */
export function hierarchy(categories: readonly CategoryRow[]): Hierarchy {
  const children = new Map<number | null, CategoryRow[]>();
  const known = new Set(categories.map((c) => c.wikiid));
  for (const category of categories) {
    const parent = category.parentid !== null && known.has(category.parentid) ? category.parentid : null;
    children.set(parent, [...(children.get(parent) ?? []), category]);
  }
  const build = (parent: number | null): Hierarchy => {
    const level: Hierarchy = {};
    for (const category of children.get(parent) ?? []) {
      level[category.title] = children.has(category.wikiid) ? build(category.wikiid) : null;
    }
    return level;
  };
  return build(null);
}

export const categoryUrl = (origin: string, title: string): string =>
  `${origin}/Device/${encodeURIComponent(title.replace(/\s+/g, '_'))}`;

const image = (origin: string, row: CategoryRow) =>
  row.imageid !== null && row.image_guid !== null
    ? imageJson(origin, { imageid: row.imageid, guid: row.image_guid })
    : null;

/** Light wiki object of a category (list entries of `GET /wikis/CATEGORY` and of `children`). */
export function lightCategoryJson(origin: string, row: CategoryRow) {
  return {
    wikiid: row.wikiid,
    namespace: 'CATEGORY' as const,
    title: row.title,
    display_title: row.display_title,
    summary: row.description,
    image: image(origin, row),
    url: categoryUrl(origin, row.title),
  };
}

/**
 * Category detail (`GET /categories/{name}`, `GET /wikis/CATEGORY/{title}`): the wiki detail fields of
 * reference 2.8 that apply to a category, and `guides`: every guide of the category the caller may see.
 */
export function categoryDetailJson(db: Db, origin: string, row: CategoryRow, viewer: UserRow | null, canEdit: boolean) {
  const all = allCategories(db, true);
  const byId = new Map(all.map((c) => [c.wikiid, c]));
  const ancestors: CategoryRow[] = [];
  for (let parent = row.parentid; parent !== null; parent = byId.get(parent)?.parentid ?? null) {
    const found = byId.get(parent);
    if (!found || ancestors.includes(found)) break;
    ancestors.unshift(found);
  }
  const guides = listGuides(db, { category: row.title, publicOnly: false }, { offset: 0, limit: 10_000, order: 'ASC' })
    .filter((guide) => canViewGuide(viewer, guide))
    .map((guide) => guideSummaryJson(origin, guide));
  const favorited = viewer
    ? (
        db.prepare('SELECT guideid FROM favorites WHERE userid = ? ORDER BY guideid').all(viewer.userid) as {
          guideid: number;
        }[]
      ).map((r) => r.guideid)
    : [];
  const url = categoryUrl(origin, row.title);
  return {
    wikiid: row.wikiid,
    langid: 'en',
    locale: 'en',
    namespace: 'CATEGORY' as const,
    title: row.title,
    display_title: row.display_title,
    revisionid: row.revisionid,
    modified_date: row.modified_date,
    url,
    fullUrl: url,
    editUrl: `${url}/edit`,
    description: row.description,
    contents_raw: row.contents_raw,
    contents_rendered: row.contents_rendered,
    can_edit: canEdit,
    image: image(origin, row),
    parent: ancestors.at(-1)?.title ?? null,
    ancestors: ancestors.map((a) => a.title),
    children: all.filter((c) => c.parentid === row.wikiid).map((c) => lightCategoryJson(origin, c)),
    guides,
    featured_guides: guides.filter((g) => g.flags.includes('GUIDE_STARRED')),
    favorited_guide_ids: favorited.filter((id) => guides.some((g) => g.guideid === id)),
    tags: categoryTags(db, row.wikiid),
    flags: [],
    documents: [],
    related_wikis: [],
    category_lists: [],
    category_info: [],
    author: [],
    info: [],
    repairability_score: null,
    source_revisionid: null,
  };
}
