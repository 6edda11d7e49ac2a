import type { RouteModule } from '../http/env.ts';
import { parseInteger, parsePaging } from '../http/paging.ts';
import { siteOrigin } from '../http/urls.ts';
import { userJson, type UserRow } from '../users/repo.ts';

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
};
