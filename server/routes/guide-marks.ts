import { guideSummaryJson } from '../guides/json.ts';
import { getGuideRows } from '../guides/repo.ts';
import { requireUser } from '../http/auth.ts';
import type { RouteModule } from '../http/env.ts';
import { siteOrigin } from '../http/urls.ts';
import { inSiteLanguage } from '../translations/repo.ts';

/**
 * The caller's own favourites as iFixit's OpenAPI 2.0 describes them (`getCurrentUserFavoriteGuides`): every
 * one, most recently favourited first; iFixit's dialect answers `{date, guide}` entries of the guides it has
 * in the site's language, the reference's guide summaries of all. The other lists and the marks themselves
 * are in user-guides.ts.
 */
export const guideMarksRoutes: RouteModule = (api, ctx) => {
  api.get('/user/favorites/guides', (c) => {
    const user = requireUser(c);
    const marked = ctx.db
      .prepare('SELECT guideid, created FROM favorites WHERE userid = ? ORDER BY created DESC, guideid')
      .all(user.userid) as { guideid: number; created: number }[];
    const dates = new Map(marked.map((m) => [m.guideid, m.created]));
    const origin = siteOrigin(c);
    const ifixit = c.get('dialect') === 'ifixit';
    // getGuideRows keeps the order asked: the latest favourite first. iFixit's leaves out the guides it has
    // in no translation of the site's language ("favorited guides with no translation ... are excluded").
    const rows = getGuideRows(ctx.db, [...dates.keys()]).filter((row) => !ifixit || inSiteLanguage(ctx.db, row));
    const listed = rows.map((row) => {
      const guide = guideSummaryJson(origin, row);
      return ifixit ? { date: dates.get(row.guideid), guide } : guide;
    });
    return c.json(listed);
  });
};
