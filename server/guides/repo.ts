import type { Db } from '../db/types.ts';
import type { Order } from '../http/paging.ts';
import type { GuideFields, GuideType } from './write.ts';

/** A guide joined with its current revision and its author's name. */
export interface GuideRow {
  guideid: number;
  revisionid: number;
  userid: number;
  username: string;
  locale: string;
  created_date: number;
  published_date: number | null;
  modified_date: number;
  prereq_modified_date: number;
  title: string;
  subject: string;
  category: string;
  type: GuideType;
  summary: string;
  difficulty: GuideFields['difficulty'];
  time_required: string;
  time_required_min: number;
  time_required_max: number;
  introduction_raw: string;
  introduction_rendered: string;
  conclusion_raw: string;
  conclusion_rendered: string;
  public: number;
  imageid: number | null;
  image_guid: string | null;
  flags: string;
  parts: string;
  tools: string;
  prerequisites: string;
  documents: string;
}

// The newest modified_date among a revision's prerequisite guides (0 when none), as reference 2.9 has it.
const PREREQ_MODIFIED = `COALESCE((SELECT MAX(pr.modified_date) FROM json_each(r.prerequisites) p
  JOIN guides pg ON pg.guideid = p.value JOIN guide_revisions pr ON pr.revisionid = pg.revisionid), 0)`;

const select = (
  revision: string,
) => `SELECT g.guideid, r.revisionid, g.userid, u.username, g.locale, g.created_date, g.published_date,
    r.modified_date, ${PREREQ_MODIFIED} AS prereq_modified_date, r.title, r.subject, r.category, r.type, r.summary,
    r.difficulty, r.time_required, r.time_required_min, r.time_required_max, r.introduction_raw,
    r.introduction_rendered, r.conclusion_raw, r.conclusion_rendered, r.public, r.imageid, i.guid AS image_guid,
    r.flags, r.parts, r.tools, r.prerequisites, r.documents
  FROM guides g JOIN guide_revisions r ON r.revisionid = ${revision} AND r.guideid = g.guideid
  JOIN users u ON u.userid = g.userid
  LEFT JOIN images i ON i.imageid = r.imageid`;

const CURRENT = select('g.revisionid');

export interface GuideFilter {
  guideids?: readonly number[];
  type?: GuideType;
  modifiedSince?: number;
  /** Public guides only unless false. */
  publicOnly?: boolean;
  /** Also the private guides of this user (their own), when publicOnly is true. */
  ownPrivateOf?: number;
  starred?: boolean;
  authorid?: number;
  category?: string;
  favoritedBy?: number;
  completedBy?: number;
}

function where(filter: GuideFilter): { sql: string; params: Record<string, unknown> } {
  const clauses: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.guideids) {
    clauses.push('guideid IN (SELECT value FROM json_each(@guideids))');
    params.guideids = JSON.stringify(filter.guideids);
  }
  if (filter.type) {
    clauses.push('type = @type');
    params.type = filter.type;
  }
  if (filter.modifiedSince !== undefined) {
    clauses.push('(modified_date >= @since OR prereq_modified_date >= @since)');
    params.since = filter.modifiedSince;
  }
  if (filter.publicOnly !== false) {
    clauses.push(filter.ownPrivateOf === undefined ? 'public = 1' : '(public = 1 OR userid = @own)');
    if (filter.ownPrivateOf !== undefined) params.own = filter.ownPrivateOf;
  }
  if (filter.starred) clauses.push(`EXISTS (SELECT 1 FROM json_each(flags) WHERE value = 'GUIDE_STARRED')`);
  if (filter.authorid !== undefined) {
    clauses.push('userid = @authorid');
    params.authorid = filter.authorid;
  }
  if (filter.category !== undefined) {
    clauses.push('category = @category COLLATE NOCASE');
    params.category = filter.category;
  }
  if (filter.favoritedBy !== undefined) {
    clauses.push('guideid IN (SELECT guideid FROM favorites WHERE userid = @fav)');
    params.fav = filter.favoritedBy;
  }
  if (filter.completedBy !== undefined) {
    clauses.push('guideid IN (SELECT guideid FROM completions WHERE userid = @done)');
    params.done = filter.completedBy;
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export function listGuides(
  db: Db,
  filter: GuideFilter,
  page: { offset: number; limit: number; order: Order },
): GuideRow[] {
  const { sql, params } = where(filter);
  return db
    .prepare(`SELECT * FROM (${CURRENT}) ${sql} ORDER BY guideid ${page.order} LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit: page.limit, offset: page.offset }) as GuideRow[];
}

export function countGuides(db: Db, filter: GuideFilter): number {
  const { sql, params } = where(filter);
  return (db.prepare(`SELECT COUNT(*) AS n FROM (${CURRENT}) ${sql}`).get(params) as { n: number }).n;
}

export function getGuideRow(db: Db, guideid: number): GuideRow | undefined {
  return db.prepare(`SELECT * FROM (${CURRENT}) WHERE guideid = ?`).get(guideid) as GuideRow | undefined;
}

/** An earlier (or the current) revision of a guide that still exists, as it was. */
export function getGuideRevisionRow(db: Db, guideid: number, revisionid: number): GuideRow | undefined {
  return db
    .prepare(`SELECT * FROM (${select('@revisionid')}) WHERE guideid = @guideid`)
    .get({ guideid, revisionid }) as GuideRow | undefined;
}

/** Guide rows by id, in the order asked, skipping ids that do not exist. */
export function getGuideRows(db: Db, guideids: readonly number[]): GuideRow[] {
  if (guideids.length === 0) return [];
  const rows = db
    .prepare(`SELECT * FROM (${CURRENT}) WHERE guideid IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(guideids)) as GuideRow[];
  const byId = new Map(rows.map((row) => [row.guideid, row]));
  return guideids.flatMap((id) => byId.get(id) ?? []);
}

/** The stored fields of the current revision, ready to be changed and saved as the next one. */
export function fieldsOf(row: GuideRow): GuideFields {
  return {
    title: row.title,
    subject: row.subject,
    category: row.category,
    type: row.type,
    summary: row.summary,
    difficulty: row.difficulty,
    time_required: row.time_required,
    time_required_min: row.time_required_min,
    time_required_max: row.time_required_max,
    introduction_raw: row.introduction_raw,
    conclusion_raw: row.conclusion_raw,
    public: row.public === 1,
    imageid: row.imageid,
    flags: JSON.parse(row.flags) as string[],
    parts: JSON.parse(row.parts) as GuideFields['parts'],
    tools: JSON.parse(row.tools) as GuideFields['tools'],
    prerequisites: JSON.parse(row.prerequisites) as number[],
    documents: JSON.parse(row.documents) as number[],
  };
}
