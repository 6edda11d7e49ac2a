import { z } from 'zod';
import { guideForRequest } from '../guides/access.ts';
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

  api.get('/guides/:guideid/tags', (c) =>
    c.json(guideTags(ctx.db, guideForRequest(ctx.db, c, c.req.param('guideid')).guideid)),
  );

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
