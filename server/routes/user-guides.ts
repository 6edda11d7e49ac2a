import type { Context } from 'hono';
import { guideForRequest } from '../guides/access.ts';
import { guideSummaryJson } from '../guides/json.ts';
import { listGuides, type GuideFilter } from '../guides/repo.ts';
import type { ServerContext } from '../context.ts';
import { isAdmin, currentUser, requireUser } from '../http/auth.ts';
import type { AppEnv, RouteModule } from '../http/env.ts';
import { notFound } from '../http/errors.ts';
import { parsePaging } from '../http/paging.ts';
import { routeId } from '../http/query.ts';
import { siteOrigin } from '../http/urls.ts';
import { inSiteLanguage } from '../translations/repo.ts';
import { recordMutation } from '../testing/audit.ts';
import { getUser } from '../users/repo.ts';

type Relation = 'favorites' | 'completions';

/**
 * A page of guides. `inSiteLanguage`: iFixit's completions, which leave out the guides it has in no
 * translation of the site's language once the page is cut ("offset and limit are applied before language
 * filtering"): a page may hold fewer than `limit` while later ones hold more.
 */
function guideList(ctx: ServerContext, c: Context<AppEnv>, filter: GuideFilter, inSiteLanguageOnly = false) {
  const paging = parsePaging((name) => c.req.query(name));
  const origin = siteOrigin(c);
  const rows = listGuides(ctx.db, filter, paging).filter((row) => !inSiteLanguageOnly || inSiteLanguage(ctx.db, row));
  return c.json(rows.map((row) => guideSummaryJson(origin, row)));
}

/** What `viewer` may see of `owner`'s guides: everything for themselves and admins, public guides otherwise. */
function visibility(c: Context<AppEnv>, owner: number): GuideFilter {
  const viewer = currentUser(c);
  if (viewer && (viewer.userid === owner || isAdmin(viewer))) return { publicOnly: false };
  return viewer ? { ownPrivateOf: viewer.userid } : {};
}

function userOf(ctx: ServerContext, c: Context<AppEnv>): number {
  const userid = routeId(c.req.param('userid'));
  if (userid === null || !getUser(ctx.db, userid)) throw notFound('No such user');
  return userid;
}

/**
 * Reference 4.5 and the user endpoints of 4.10 about guides: contributed, favorites, completions.
 * PUT and DELETE answer 204 and are idempotent; completions also come from finishing a work-log entry.
 */
export const userGuidesRoutes: RouteModule = (api, ctx) => {
  api.get('/user/guides', (c) => guideList(ctx, c, { authorid: requireUser(c).userid, publicOnly: false }));
  api.get('/users/:userid/guides', (c) => {
    const owner = userOf(ctx, c);
    return guideList(ctx, c, { authorid: owner, ...visibility(c, owner) });
  });

  const lists: [string, Relation, keyof GuideFilter][] = [
    ['/favorites/guides', 'favorites', 'favoritedBy'],
    ['/completions', 'completions', 'completedBy'],
  ];
  for (const [path, , key] of lists) {
    // The caller's own favourites are all listed at once (guide-marks.ts, registered before this module).
    if (path !== '/favorites/guides') {
      api.get(`/user${path}`, (c) => {
        const filter = { [key]: requireUser(c).userid, ...visibility(c, requireUser(c).userid) };
        return guideList(ctx, c, filter, c.get('dialect') === 'ifixit');
      });
    }
    api.get(`/users/:userid${path}`, (c) => {
      const owner = userOf(ctx, c);
      return guideList(ctx, c, { [key]: owner, ...visibility(c, owner) });
    });
  }

  const marks: [string, Relation][] = [
    ['/user/favorites/guides/:guideid', 'favorites'],
    ['/user/completions/guides/:guideid', 'completions'],
    // iFixit's markGuideCompleted and unmarkGuideCompleted.
    ['/guides/:guideid/completed', 'completions'],
  ];
  for (const [path, relation] of marks) {
    api.put(path, (c) => {
      const user = requireUser(c);
      const guide = guideForRequest(ctx.db, c, c.req.param('guideid'));
      ctx.db.transaction(() => {
        const added = ctx.db
          .prepare(`INSERT OR IGNORE INTO ${relation} (userid, guideid, created) VALUES (?, ?, ?)`)
          .run(user.userid, guide.guideid, ctx.clock.now());
        if (added.changes) recordMutation(ctx, c, relation, `${user.userid}:${guide.guideid}`);
      })();
      return c.body(null, 204);
    });
    api.delete(path, (c) => {
      const user = requireUser(c);
      const guideid = routeId(c.req.param('guideid'));
      ctx.db.transaction(() => {
        const removed = ctx.db
          .prepare(`DELETE FROM ${relation} WHERE userid = ? AND guideid = ?`)
          .run(user.userid, guideid ?? -1);
        if (removed.changes) recordMutation(ctx, c, relation, `${user.userid}:${guideid}`);
      })();
      return c.body(null, 204);
    });
  }
};
