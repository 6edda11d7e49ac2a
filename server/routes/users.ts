import { currentUser, isAdmin } from '../http/auth.ts';
import type { RouteModule } from '../http/env.ts';
import { notFound } from '../http/errors.ts';
import { pagedResult, parseInteger, parsePaging } from '../http/paging.ts';
import { parseBoolean, routeId } from '../http/query.ts';
import { siteOrigin } from '../http/urls.ts';
import { getUser, userJson, type UserRow } from '../users/repo.ts';
import { searchUsers } from '../users/search.ts';

/** Reference 4.5: people of the site. */
export const usersRoutes: RouteModule = (api, ctx) => {
  api.get('/users', (c) => {
    const paging = parsePaging((name) => c.req.query(name));
    const joinedSince = parseInteger(c.req.query('joinedSince'), 'joinedSince', { min: 0 });
    const rows = ctx.db
      .prepare(
        `SELECT * FROM users WHERE (@since IS NULL OR join_date >= @since)
         ORDER BY userid ${paging.order} LIMIT @limit OFFSET @offset`,
      )
      .all({ since: joinedSince ?? null, limit: paging.limit, offset: paging.offset }) as UserRow[];
    const origin = siteOrigin(c);
    return c.json(rows.map((row) => userJson(ctx.db, row, origin)));
  });

  api.get('/users/search/:search', (c) => {
    const paging = parsePaging((name) => c.req.query(name));
    const text = c.req.param('search').trim();
    const uniqueOnly = parseBoolean(c.req.query('uniqueOnly'), 'uniqueOnly') ?? false;
    const matchEmail = isAdmin(currentUser(c));
    const { rows, total } = searchUsers(ctx.db, {
      text,
      uniqueOnly,
      offset: paging.offset,
      limit: paging.limit,
      matchEmail,
    });
    const origin = siteOrigin(c);
    const results = rows.map((row) => userJson(ctx.db, row, origin));
    return c.json(pagedResult(results, total, paging, text));
  });

  api.get('/users/:userid', (c) => {
    const userid = routeId(c.req.param('userid'));
    const row = userid === null ? undefined : getUser(ctx.db, userid);
    if (!row) throw notFound('No such user');
    return c.json(userJson(ctx.db, row, siteOrigin(c)));
  });
};
