import type { Db } from '../db/types.ts';
import type { Viewer } from '../http/auth.ts';

export interface WorkspaceRow {
  wikiid: number;
  workspaceRevisionid: number;
  status: string;
  privacyStatus: 'public' | 'private';
  userid: number;
  created: number;
}

export function getWorkspace(db: Db, wikiid: number): WorkspaceRow | undefined {
  return db.prepare('SELECT * FROM workspaces WHERE wikiid = ?').get(wikiid) as WorkspaceRow | undefined;
}

/** The title of the category with this wikiid (the content side looks categories up by title). */
export function categoryTitle(db: Db, wikiid: number): string | undefined {
  return (db.prepare('SELECT title FROM categories WHERE wikiid = ?').get(wikiid) as { title: string } | undefined)
    ?.title;
}

/** The workspace a category lies in: its root ancestor, when that root is a workspace. */
export function workspaceOfCategory(db: Db, wikiid: number): number | null {
  const row = db
    .prepare(
      `WITH RECURSIVE up(wikiid, parentid) AS (
         SELECT wikiid, parentid FROM categories WHERE wikiid = ?
         UNION ALL SELECT c.wikiid, c.parentid FROM categories c JOIN up ON c.wikiid = up.parentid
       )
       SELECT w.wikiid FROM up JOIN workspaces w ON w.wikiid = up.wikiid WHERE up.parentid IS NULL`,
    )
    .get(wikiid) as { wikiid: number } | undefined;
  return row?.wikiid ?? null;
}

// Shared by the single check and the listing, so both agree on who may see a workspace.
const ACCESSIBLE = `(w.privacyStatus = 'public' OR @admin = 1 OR w.userid = @viewer
  OR EXISTS (SELECT 1 FROM workspace_access a WHERE a.wikiid = w.wikiid AND (a.userid = @viewer
    OR a.teamid IN (SELECT teamid FROM team_members WHERE userid = @viewer))))`;

const viewerParams = (viewer: Viewer) => ({ admin: viewer?.admin ? 1 : 0, viewer: viewer?.userid ?? null });

export function canAccess(db: Db, wikiid: number, viewer: Viewer): boolean {
  return (
    db
      .prepare(`SELECT 1 FROM workspaces w WHERE w.wikiid = @wikiid AND ${ACCESSIBLE}`)
      .get({ wikiid, ...viewerParams(viewer) }) !== undefined
  );
}

export interface WorkspacePageQuery {
  viewer: Viewer;
  /** The first item of the page: (display_title, wikiid), or null for the first page. */
  from: { title: string; wikiid: number } | null;
  limit: number;
}

/** Workspaces in (display_title, wikiid) order from the cursor on; one extra row tells the next cursor. */
export function workspacePage(
  db: Db,
  query: WorkspacePageQuery,
): { rows: (WorkspaceRow & { display_title: string })[]; next: { title: string; wikiid: number } | null } {
  const rows = db
    .prepare(
      `SELECT w.*, c.display_title FROM workspaces w JOIN categories c USING (wikiid)
       WHERE ${ACCESSIBLE} AND (@fromTitle IS NULL OR (c.display_title, w.wikiid) >= (@fromTitle, @fromId))
       ORDER BY c.display_title, w.wikiid LIMIT @limit`,
    )
    .all({
      ...viewerParams(query.viewer),
      fromTitle: query.from?.title ?? null,
      fromId: query.from?.wikiid ?? null,
      limit: query.limit + 1,
    }) as (WorkspaceRow & { display_title: string })[];
  const extra = rows.length > query.limit ? rows.pop()! : undefined;
  return { rows, next: extra ? { title: extra.display_title, wikiid: extra.wikiid } : null };
}

export function grantAccess(db: Db, wikiid: number, to: { userid: number } | { teamid: number }): void {
  db.prepare('INSERT OR IGNORE INTO workspace_access (wikiid, userid, teamid) VALUES (?, ?, ?)').run(
    wikiid,
    'userid' in to ? to.userid : null,
    'teamid' in to ? to.teamid : null,
  );
}

/** Makes a root category a workspace. */
export function insertWorkspace(
  db: Db,
  wikiid: number,
  privacy: 'public' | 'private',
  userid: number,
  now: number,
): void {
  db.prepare(
    `INSERT INTO workspaces (wikiid, workspaceRevisionid, privacyStatus, userid, created)
     VALUES (?, (SELECT COALESCE(MAX(workspaceRevisionid), 0) + 1 FROM workspaces), ?, ?, ?)`,
  ).run(wikiid, privacy, userid, now);
}

/** A new category at the site root; revision ids of categories grow table-wide. */
export function insertRootCategory(db: Db, title: string, now: number): number {
  return Number(
    db
      .prepare(
        `INSERT INTO categories (title, display_title, parentid, revisionid, modified_date)
         VALUES (?, ?, NULL, (SELECT COALESCE(MAX(revisionid), 0) + 1 FROM categories), ?)`,
      )
      .run(title, title, now).lastInsertRowid,
  );
}

/** Moves a category to the site root (a new revision of it). */
export function moveToRoot(db: Db, wikiid: number, now: number): void {
  db.prepare(
    `UPDATE categories SET parentid = NULL, modified_date = ?,
       revisionid = (SELECT COALESCE(MAX(revisionid), 0) + 1 FROM categories) WHERE wikiid = ?`,
  ).run(now, wikiid);
}
