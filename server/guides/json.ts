import type { Db } from '../db/types.ts';
import { getUser, userJson, type UserRow } from '../users/repo.ts';
import { commentsOf } from '../comments/repo.ts';
import { flagObject, isFlagId } from './flags.ts';
import { getGuideRows, type GuideRow } from './repo.ts';
import { documentJson, imageJson } from '../media/json.ts';
import { getDocumentsMeta } from '../media/repo.ts';
import { stepsJson } from './steps-json.ts';
import { guideTags } from '../tags/repo.ts';
import type { PartItem } from './write.ts';

/** The guide's page on the site (what `url` fields point at). */
export const guideUrl = (origin: string, row: Pick<GuideRow, 'guideid' | 'title'>): string =>
  `${origin}/Guide/${row.title.replace(/[^A-Za-z0-9-]+/g, '+')}/${row.guideid}`;

const guideImage = (origin: string, row: GuideRow) =>
  row.imageid !== null && row.image_guid !== null
    ? imageJson(origin, { imageid: row.imageid, guid: row.image_guid })
    : null;

/**
 * Guide summary (reference 2.9). Adds `summary` and `difficulty`, which list views show and the
 * prerequisite shape (2.10) carries anyway.
 */
export function guideSummaryJson(origin: string, row: GuideRow) {
  return {
    dataType: 'guide' as const,
    guideid: row.guideid,
    locale: row.locale,
    revisionid: row.revisionid,
    modified_date: row.modified_date,
    prereq_modified_date: row.prereq_modified_date,
    url: guideUrl(origin, row),
    type: row.type,
    category: row.category,
    subject: row.subject,
    title: row.title,
    summary: row.summary,
    difficulty: row.difficulty,
    public: row.public === 1,
    userid: row.userid,
    username: row.username,
    flags: JSON.parse(row.flags) as string[],
    image: guideImage(origin, row),
  };
}

/** Prerequisite entry of reference 2.10. */
function prerequisiteJson(origin: string, row: GuideRow) {
  return { ...guideSummaryJson(origin, row), time_required_max: row.time_required_max };
}

/** A relative URL stored in seeded content (`/Item/...`) made absolute for this site. */
const absolute = (origin: string, url: string): string => (url.startsWith('/') ? origin + url : url);

function itemsJson(origin: string, json: string): PartItem[] {
  return (JSON.parse(json) as PartItem[]).map((item) => ({
    ...item,
    url: absolute(origin, item.url),
    thumbnail: absolute(origin, item.thumbnail),
  }));
}

/**
 * The full guide: every field public clients read (public-shapes.md "Guides") and those of reference 2.10.
 * `flags` here are flag objects; `favorited`/`completed`/`can_edit` are for the viewer (false when anonymous).
 */
export function fullGuideJson(
  db: Db,
  origin: string,
  row: GuideRow,
  viewer: { user: UserRow | null; canEdit: boolean },
) {
  const author = getUser(db, row.userid);
  const prerequisites = getGuideRows(db, JSON.parse(row.prerequisites) as number[]);
  const viewerId = viewer.user?.userid;
  const has = (table: 'favorites' | 'completions') =>
    viewerId !== undefined &&
    db.prepare(`SELECT 1 FROM ${table} WHERE userid = ? AND guideid = ?`).get(viewerId, row.guideid) !== undefined;
  const published = row.published_date;
  return {
    ...guideSummaryJson(origin, row),
    langid: row.locale,
    author: author ? userJson(db, author, origin) : null,
    time_required: row.time_required,
    time_required_min: row.time_required_min,
    time_required_max: row.time_required_max,
    introduction_raw: row.introduction_raw,
    introduction_rendered: row.introduction_rendered,
    conclusion_raw: row.conclusion_raw,
    conclusion_rendered: row.conclusion_rendered,
    flags: (JSON.parse(row.flags) as string[]).filter(isFlagId).map((flagid) => flagObject(flagid, origin)),
    documents: getDocumentsMeta(db, JSON.parse(row.documents) as number[]).map((doc) => documentJson(origin, doc)),
    parts: itemsJson(origin, row.parts),
    tools: itemsJson(origin, row.tools),
    prerequisites: prerequisites.map((prereq) => prerequisiteJson(origin, prereq)),
    steps: stepsJson(db, origin, row.guideid, row.revisionid),
    comments: commentsOf(db, origin, 'guide', [row.guideid]).get(row.guideid) ?? [],
    tags: guideTags(db, row.guideid),
    favorited: has('favorites'),
    completed: has('completions'),
    can_edit: viewer.canEdit,
    created_date: row.created_date,
    published_date: published,
    featured_document_embed_url: null,
    featured_document_thumbnail_url: null,
  };
}
