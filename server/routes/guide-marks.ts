import { guideSummaryJson } from '../guides/json.ts';
import { getGuideRows } from '../guides/repo.ts';
import { requireUser } from '../http/auth.ts';
import type { RouteModule } from '../http/env.ts';
import { siteOrigin } from '../http/urls.ts';

/**
 * The caller's own favourites as iFixit's OpenAPI 2.0 describes them (`getCurrentUserFavoriteGuides`): every
 * one, most recently favourited first; iFixit's dialect answers `{date, guide}` entries, the reference's
 * guide summaries. The other lists and the marks themselves are in user-guides.ts.
 */
export const guideMarksRoutes: RouteModule = (api, ctx) => {
  api.get('/user/favorites/guides', (c) => {
    const user = requireUser(c);
    const marked = ctx.db
      .prepare('SELECT guideid, created FROM favorites WHERE userid = ? ORDER BY created DESC, guideid')
      .all(user.userid) as { guideid: number; created: number }[];
    const dates = new Map(marked.map((m) => [m.guideid, m.created]));
    const origin = siteOrigin(c);
    // getGuideRows keeps the order asked: the latest favourite first.
    const listed = getGuideRows(ctx.db, [...dates.keys()]).map((row) => {
      const guide = guideSummaryJson(origin, row);
      return c.get('dialect') === 'ifixit' ? { date: dates.get(row.guideid), guide } : guide;
    });
    return c.json(listed);
  });
};
