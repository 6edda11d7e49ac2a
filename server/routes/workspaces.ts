import type { Context } from 'hono';
import { z } from 'zod';
import type { ServerContext } from '../context.ts';
import { requirePrivilege, viewerOf, type Viewer } from '../http/auth.ts';
import type { AppEnv, RouteModule } from '../http/env.ts';
import { forbidden, invalid, notFound, unauthorized } from '../http/errors.ts';
import { readBody } from '../http/json.ts';
import { parseInteger, MAX_LIMIT } from '../http/paging.ts';
import { routeId } from '../http/query.ts';
import { siteOrigin } from '../http/urls.ts';
import { recordMutation } from '../testing/audit.ts';
import { getUser, userJson } from '../users/repo.ts';
import {
  canAccess,
  getCategory,
  getCategoryByTitle,
  getWorkspace,
  insertRootCategory,
  insertWorkspace,
  moveToRoot,
  workspacePage,
  type WorkspaceRow,
} from '../workspaces/repo.ts';
import { categoryWikiJson } from '../workspaces/wiki.ts';

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
    c.json(workspaceJson(ctx, workspace, siteOrigin(c), viewerOf(c)));

  api.get('/workspaces', (c) => {
    const from = parseCursor(c.req.query('nextPageCursor'));
    // `limit` is not in the reference; it lets a client (and the tests) choose the page size.
    const limit = parseInteger(c.req.query('limit'), 'limit', { min: 1, max: MAX_LIMIT }) ?? WORKSPACE_PAGE_SIZE;
    const viewer = viewerOf(c);
    const { rows, next } = workspacePage(ctx.db, { viewer, from, limit });
    const origin = siteOrigin(c);
    return c.json({
      items: rows.map((row) => ({ data: workspaceJson(ctx, row, origin, viewer) })),
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
    if (getCategoryByTitle(ctx.db, body.workspaceTitle)) {
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
    const category = wikiid === null ? undefined : getCategory(ctx.db, wikiid);
    if (!category) throw notFound('No such category');
    const body = await readBody(c, conversion);
    if (getWorkspace(ctx.db, category.wikiid)) {
      throw invalid('wikiid', 'already_workspace', 'This category is a workspace already');
    }
    const workspace = ctx.db.transaction(() => {
      const now = ctx.clock.now();
      moveToRoot(ctx.db, category.wikiid, now);
      insertWorkspace(ctx.db, category.wikiid, body.accessStatus, user.userid, now);
      recordMutation(ctx, c, 'workspace', category.wikiid);
      return getWorkspace(ctx.db, category.wikiid)!;
    })();
    return answer(c, workspace);
  });
};

/** Workspace of reference 2.7; `user` is the owner. */
function workspaceJson(ctx: ServerContext, workspace: WorkspaceRow, origin: string, viewer: Viewer) {
  const category = getCategory(ctx.db, workspace.wikiid)!;
  const owner = getUser(ctx.db, workspace.userid)!;
  return {
    workspaceRevisionid: workspace.workspaceRevisionid,
    wikiid: workspace.wikiid,
    status: workspace.status,
    privacyStatus: workspace.privacyStatus,
    wiki: categoryWikiJson(ctx.db, category, origin, viewer?.admin ?? false),
    user: userJson(ctx.db, owner, origin),
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
