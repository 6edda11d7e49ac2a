import { z } from 'zod';
import { guideForRequest } from '../guides/access.ts';
import { insertRelease, releasesJson } from '../guides/releases.ts';
import { currentUser } from '../http/auth.ts';
import type { RouteModule } from '../http/env.ts';
import { notFound } from '../http/errors.ts';
import { readBody } from '../http/json.ts';
import { siteOrigin } from '../http/urls.ts';
import { recordMutation } from '../testing/audit.ts';

/** `POST /guides/releases`: a release note of the guide's current revision, by someone who may edit it. */
const newRelease = z.object({
  guideid: z.number().int().positive(),
  title: z.string().trim().min(1).max(200),
  notes: z.string().max(10_000).default(''),
  type: z.enum(['major', 'minor']).default('minor'),
});

/**
 * Dozuki's guide releases (dozuki-api-2.0.md §2.6 and §5): the release notes an author writes when a
 * revision is published. Seen as the guide itself is. iFixit's API has none: an `ifixit` site answers 404.
 */
export const releasesRoutes: RouteModule = (api, ctx) => {
  const offered = () => {
    if (ctx.options.dialect === 'ifixit') throw notFound('This site has no guide releases');
  };

  api.get('/guides/:guideid/releases', (c) => {
    offered();
    const row = guideForRequest(ctx.db, c, c.req.param('guideid'));
    return c.json(releasesJson(ctx.db, siteOrigin(c), row.guideid));
  });

  api.post('/guides/releases', async (c) => {
    offered();
    const body = await readBody(c, newRelease);
    const row = guideForRequest(ctx.db, c, String(body.guideid), 'edit');
    ctx.db.transaction(() => {
      insertRelease(ctx.db, {
        guideid: row.guideid,
        revisionid: row.revisionid,
        userid: currentUser(c)!.userid,
        title: body.title,
        notes: body.notes,
        type: body.type,
        at: ctx.clock.now(),
      });
      recordMutation(ctx, c, 'guide_release', row.guideid);
    })();
    return c.json(releasesJson(ctx.db, siteOrigin(c), row.guideid)[0], 201);
  });
};
