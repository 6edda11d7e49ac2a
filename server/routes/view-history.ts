import type { Context } from 'hono';
import { canEditContent, isAdmin, requireUser } from '../http/auth.ts';
import type { AppEnv, RouteModule } from '../http/env.ts';
import { forbidden, invalid, notFound } from '../http/errors.ts';
import { parseInteger } from '../http/paging.ts';
import { routeId } from '../http/query.ts';
import { getUser } from '../users/repo.ts';
import { views, type ViewDocType } from '../view-history/repo.ts';

/**
 * Reference 4.8. `start_date` and `end_date` are unix seconds, both inclusive. People read their own
 * history; admins read anyone's; a document's history is for those who edit content.
 */
export const viewHistoryRoutes: RouteModule = (api, ctx) => {
  const dates = (c: Context<AppEnv>) => {
    const startDate = parseInteger(c.req.query('start_date'), 'start_date', { min: 0 }) ?? null;
    const endDate = parseInteger(c.req.query('end_date'), 'end_date', { min: 0 }) ?? null;
    if (startDate !== null && endDate !== null && endDate < startDate) {
      throw invalid('end_date', 'invalid_value', 'end_date must not be before start_date');
    }
    return { startDate, endDate };
  };

  api.get('/user_view_history/user/:userid', (c) => {
    const viewer = requireUser(c);
    const userid = routeId(c.req.param('userid'));
    if (userid === null || !getUser(ctx.db, userid)) throw notFound('No such user');
    if (userid !== viewer.userid && !isAdmin(viewer)) throw forbidden('Only admins read the view history of others');
    return c.json(views(ctx.db, { userid, ...dates(c) }));
  });

  api.get('/user_view_history/:doc_type/:docid', (c) => {
    const viewer = requireUser(c);
    const type = c.req.param('doc_type').toLowerCase();
    if (type !== 'guide' && type !== 'wiki') throw notFound('doc_type must be guide or wiki');
    if (!canEditContent(viewer)) throw forbidden("Only authors, moderators and admins read a document's view history");
    const doc = { type: type.toUpperCase() as ViewDocType, id: c.req.param('docid') };
    return c.json(views(ctx.db, { doc, ...dates(c) }));
  });
};
