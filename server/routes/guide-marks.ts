import { guideForRequest } from '../guides/access.ts';
import { guideSummaryJson } from '../guides/json.ts';
import { getGuideRows } from '../guides/repo.ts';
import { requireUser } from '../http/auth.ts';
import type { RouteModule } from '../http/env.ts';
import { siteOrigin } from '../http/urls.ts';
import { recordMutation } from '../testing/audit.ts';

/**
 * Issue 30, as iFixit's OpenAPI 2.0 describes them: the caller's own favourites (`getCurrentUserFavoriteGuides`,
 * every one, most recently favourited first; iFixit's dialect answers `{date, guide}` entries, the reference's
 * guide summaries) and marking a guide completed (`PUT`/`DELETE /guides/{guideid}/completed`, 204 and
 * idempotent, per user). The other lists and marks are in user-guides.ts.
 */
export const guideMarksRoutes: RouteModule = (api, ctx) => {
  api.get('/user/favorites/guides', (c) => {
    const user = requireUser(c);
    const marked = ctx.db
      .prepare('SELECT guideid, created FROM favorites WHERE userid = ? ORDER BY created DESC, guideid')
      .all(user.userid) as { guideid: number; created: number }[];
    const rows = new Map(
      getGuideRows(
        ctx.db,
        marked.map((m) => m.guideid),
      ).map((row) => [row.guideid, row]),
    );
    const origin = siteOrigin(c);
    const listed = marked.flatMap((m) => {
      const row = rows.get(m.guideid);
      if (!row) return [];
      const guide = guideSummaryJson(origin, row);
      return [c.get('dialect') === 'ifixit' ? { date: m.created, guide } : guide];
    });
    return c.json(listed);
  });

  api.put('/guides/:guideid/completed', (c) => {
    const user = requireUser(c);
    const guide = guideForRequest(ctx.db, c, c.req.param('guideid'));
    ctx.db.transaction(() => {
      const added = ctx.db
        .prepare('INSERT OR IGNORE INTO completions (userid, guideid, created) VALUES (?, ?, ?)')
        .run(user.userid, guide.guideid, ctx.clock.now());
      if (added.changes) recordMutation(ctx, c, 'completions', `${user.userid}:${guide.guideid}`);
    })();
    return c.body(null, 204);
  });

  api.delete('/guides/:guideid/completed', (c) => {
    const user = requireUser(c);
    const guide = guideForRequest(ctx.db, c, c.req.param('guideid'));
    ctx.db.transaction(() => {
      const removed = ctx.db
        .prepare('DELETE FROM completions WHERE userid = ? AND guideid = ?')
        .run(user.userid, guide.guideid);
      if (removed.changes) recordMutation(ctx, c, 'completions', `${user.userid}:${guide.guideid}`);
    })();
    return c.body(null, 204);
  });
};
