import type { Context } from 'hono';
import { z } from 'zod';
import type { ServerContext } from '../context.ts';
import { categoryDetailJson, getCategory } from '../categories/repo.ts';
import { canEditContent, currentUser, requirePrivilege, viewerOf } from '../http/auth.ts';
import type { AppEnv, RouteModule } from '../http/env.ts';
import { forbidden, invalid, notFound, unauthorized } from '../http/errors.ts';
import { readBody } from '../http/json.ts';
import { parseInteger, MAX_LIMIT } from '../http/paging.ts';
import { routeId } from '../http/query.ts';
import { siteOrigin } from '../http/urls.ts';
import { recordMutation } from '../testing/audit.ts';
import { getUser, userJson, type UserRow } from '../users/repo.ts';
import {
  canAccess,
  categoryTitle,
  getWorkspace,
  insertRootCategory,
  insertWorkspace,
  moveToRoot,
  workspacePage,
  type WorkspaceRow,
} from '../workspaces/repo.ts';

export const WORKSPACE_PAGE_SIZE = 20;

const accessStatus = z.enum(['public', 'private']);
const newWorkspace = z.object({ workspaceTitle: z.string().trim().min(1), accessStatus });
const conversion = z.object({ accessStatus });

/**
 * Reference 4.3. Listing and detail show the workspaces the caller may access (public ones to anyone);
 * creating and converting are for admins. Both answer 200, as the reference says.
 */
export const workspacesRoutes: RouteModule = (api, ctx) => {
  const answer = (c: Context<AppEnv>, workspace: WorkspaceRow) =>
    c.json(workspaceJson(ctx, workspace, siteOrigin(c), currentUser(c)));

  api.get('/workspaces', (c) => {
    const from = parseCursor(c.req.query('nextPageCursor'));
    // `limit` is not in the reference; it lets a client (and the tests) choose the page size.
    const limit = parseInteger(c.req.query('limit'), 'limit', { min: 1, max: MAX_LIMIT }) ?? WORKSPACE_PAGE_SIZE;
    const { rows, next } = workspacePage(ctx.db, { viewer: viewerOf(c), from, limit });
    const origin = siteOrigin(c);
    const user = currentUser(c);
    return c.json({
      items: rows.map((row) => ({ data: workspaceJson(ctx, row, origin, user) })),
      pageSize: limit,
      nextPageCursor: next ? `${next.title}|${next.wikiid}` : null,
    });
  });

  api.get('/workspaces/:wikiid', (c) => {
    const wikiid = routeId(c.req.param('wikiid'));
    const workspace = wikiid === null ? undefined : getWorkspace(ctx.db, wikiid);
    if (!workspace) throw notFound('No such workspace');
    const viewer = viewerOf(c);
    if (!canAccess(ctx.db, workspace.wikiid, viewer)) {
      throw viewer ? forbidden('This workspace is private') : unauthorized();
    }
    return answer(c, workspace);
  });

  api.post('/workspaces', async (c) => {
    const user = requirePrivilege(c, 'Admin');
    const body = await readBody(c, newWorkspace);
    if (getCategory(ctx.db, body.workspaceTitle)) {
      throw invalid('workspaceTitle', 'invalid_value', `A category titled ${body.workspaceTitle} already exists`);
    }
    const workspace = ctx.db.transaction(() => {
      const now = ctx.clock.now();
      const wikiid = insertRootCategory(ctx.db, body.workspaceTitle, now);
      insertWorkspace(ctx.db, wikiid, body.accessStatus, user.userid, now);
      recordMutation(ctx, c, 'workspace', wikiid);
      return getWorkspace(ctx.db, wikiid)!;
    })();
    return answer(c, workspace);
  });

  api.post('/workspaces/convert/from-category/:wikiid', async (c) => {
    const user = requirePrivilege(c, 'Admin');
    const wikiid = routeId(c.req.param('wikiid'));
    const title = wikiid === null ? undefined : categoryTitle(ctx.db, wikiid);
    if (wikiid === null || title === undefined) throw notFound('No such category');
    const body = await readBody(c, conversion);
    if (getWorkspace(ctx.db, wikiid)) {
      throw invalid('wikiid', 'already_workspace', 'This category is a workspace already');
    }
    const workspace = ctx.db.transaction(() => {
      const now = ctx.clock.now();
      moveToRoot(ctx.db, wikiid, now);
      insertWorkspace(ctx.db, wikiid, body.accessStatus, user.userid, now);
      recordMutation(ctx, c, 'workspace', wikiid);
      return getWorkspace(ctx.db, wikiid)!;
    })();
    return answer(c, workspace);
  });
};

/** Workspace of reference 2.7: `wiki` is its category's detail as the content side answers it, `user` its owner. */
function workspaceJson(ctx: ServerContext, workspace: WorkspaceRow, origin: string, viewer: UserRow | null) {
  const category = getCategory(ctx.db, categoryTitle(ctx.db, workspace.wikiid)!)!;
  return {
    workspaceRevisionid: workspace.workspaceRevisionid,
    wikiid: workspace.wikiid,
    status: workspace.status,
    privacyStatus: workspace.privacyStatus,
    wiki: categoryDetailJson(ctx.db, origin, category, viewer, canEditContent(viewer)),
    user: userJson(ctx.db, getUser(ctx.db, workspace.userid)!, origin),
  };
}

/** `display_title|wikiid` of the first workspace of the page; the title may itself hold `|`. */
function parseCursor(cursor: string | undefined): { title: string; wikiid: number } | null {
  if (cursor === undefined || cursor === '') return null;
  const bar = cursor.lastIndexOf('|');
  const wikiid = bar < 0 ? null : routeId(cursor.slice(bar + 1));
  if (wikiid === null) throw invalid('nextPageCursor', 'invalid_value', 'nextPageCursor must be display_title|wikiid');
  return { title: cursor.slice(0, bar), wikiid };
}
