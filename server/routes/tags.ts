import { z } from 'zod';
import { guideForRequest } from '../guides/access.ts';
import { getGuideRow } from '../guides/repo.ts';
import { forbidden } from '../http/errors.ts';
import { routeId } from '../http/query.ts';
import { addTag, guideTags, listTags, removeTag } from '../tags/repo.ts';
import type { RouteModule } from '../http/env.ts';
import { readBody } from '../http/json.ts';
import { parsePaging } from '../http/paging.ts';
import { recordMutation } from '../testing/audit.ts';
import { fullGuideResponse } from './guides.ts';

const tagBody = z.object({ tag: z.string().trim().min(1).max(100) });

/** Reference 4.4 for guides (the wiki tag endpoints are in categories.ts). */
export const tagsRoutes: RouteModule = (api, ctx) => {
  api.get('/tags', (c) =>
    c.json(
      listTags(
        ctx.db,
        parsePaging((name) => c.req.query(name)),
      ),
    ),
  );

  api.get('/guides/:guideid/tags', (c) => {
    if (c.get('dialect') === 'ifixit') {
      // iFixit: "A guide that is private, deleted, or nonexistent returns 403 with the message \"Guide is
      // private.\"", to its author too; the endpoint does not return 404.
      const row = getGuideRow(ctx.db, routeId(c.req.param('guideid')) ?? -1);
      if (!row || row.public !== 1) throw forbidden('Guide is private.');
      return c.json(guideTags(ctx.db, row.guideid));
    }
    return c.json(guideTags(ctx.db, guideForRequest(ctx.db, c, c.req.param('guideid')).guideid));
  });

  for (const method of ['put', 'delete'] as const) {
    api[method]('/guides/:guideid/tag', async (c) => {
      const row = guideForRequest(ctx.db, c, c.req.param('guideid'), 'edit');
      const { tag } = await readBody(c, tagBody);
      ctx.db.transaction(() => {
        const changed =
          method === 'put'
            ? addTag(ctx.db, { guideid: row.guideid }, tag)
            : removeTag(ctx.db, { guideid: row.guideid }, tag);
        if (changed) recordMutation(ctx, c, 'guide_tag', row.guideid);
      })();
      return c.json(fullGuideResponse(ctx, c, row));
    });
  }
};
