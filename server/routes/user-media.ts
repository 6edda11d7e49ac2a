import { deleteMedia, getMediaRow, mediaItemJson, storeUpload } from '../user-media/repo.ts';
import type { ServerContext } from '../context.ts';
import { MEDIA_TYPES, type MediaType } from '../db/schema-content.ts';
import { requireUser } from '../http/auth.ts';
import { readBodyBytes } from '../http/body.ts';
import type { AppEnv, RouteModule } from '../http/env.ts';
import { HttpError, invalid, missingField, notFound } from '../http/errors.ts';
import { parsePaging } from '../http/paging.ts';
import { routeId } from '../http/query.ts';
import { siteOrigin } from '../http/urls.ts';
import { recordMutation } from '../testing/audit.ts';
import type { Context } from 'hono';
import type { MediaRow } from '../user-media/repo.ts';

/** Checked from Content-Length before a byte is read, and while the body streams in when there is none. */
export const MAX_UPLOAD = 25 * 1024 * 1024;

/** The caller's item of the route's type; a type outside public-shapes.md's four is a 400 as on real sites. */
function itemOf(ctx: ServerContext, c: Context<AppEnv>): MediaRow {
  const user = requireUser(c);
  const type = c.req.param('type') ?? '';
  if (!(MEDIA_TYPES as readonly string[]).includes(type)) {
    throw new HttpError(400, `Invalid type provided in the route. Expected one of: ${MEDIA_TYPES.join(', ')}`);
  }
  const itemid = routeId(c.req.param('itemId'));
  const row = itemid === null ? undefined : getMediaRow(ctx.db, itemid);
  if (!row || row.userid !== user.userid || row.type !== (type as MediaType)) throw notFound('No such media item');
  return row;
}

/** The user's media library of reference 4.10 (upload, current, get, delete). */
export const userMediaRoutes: RouteModule = (api, ctx) => {
  api.post('/user/media/uploads', async (c) => {
    const user = requireUser(c);
    const name = c.req.query('file')?.trim();
    if (!name) throw missingField('file');
    const contentType = c.req.header('Content-Type')?.split(';')[0]?.trim().toLowerCase();
    if (contentType !== 'application/octet-stream') {
      throw new HttpError(415, 'The file is the request body, sent as Content-Type: application/octet-stream');
    }
    const bytes = await readBodyBytes(c, MAX_UPLOAD, 'The file');
    if (bytes.length === 0) throw invalid('file', 'empty', 'The uploaded file is empty');
    const stored = ctx.db.transaction(() => {
      const row = storeUpload(ctx.db, { userid: user.userid, name, bytes, now: ctx.clock.now() });
      if (typeof row !== 'string') recordMutation(ctx, c, 'user_media', row.itemid);
      return row;
    })();
    if (typeof stored === 'string') throw invalid('file', 'invalid_value', `${name}: ${stored}`);
    return c.json(mediaItemJson(ctx.db, siteOrigin(c), stored), 201);
  });

  api.get('/user/media/current', (c) => {
    const user = requireUser(c);
    const paging = parsePaging((name) => c.req.query(name));
    const rows = ctx.db
      .prepare(`SELECT * FROM user_media WHERE userid = ? ORDER BY itemid ${paging.order} LIMIT ? OFFSET ?`)
      .all(user.userid, paging.limit, paging.offset) as MediaRow[];
    const origin = siteOrigin(c);
    return c.json(rows.map((row) => mediaItemJson(ctx.db, origin, row)));
  });

  api.get('/user/media/:type/:itemId', (c) => {
    const row = itemOf(ctx, c);
    const answer = mediaItemJson(ctx.db, siteOrigin(c), row);
    // A video reports "processing" at first look and ready from then on, so clients exercise their polling.
    if (row.type === 'GuideVideoObject' && row.polls === 0)
      ctx.db.prepare('UPDATE user_media SET polls = 1 WHERE itemid = ?').run(row.itemid);
    return c.json(answer);
  });

  api.delete('/user/media/:type/:itemId', (c) => {
    const row = itemOf(ctx, c);
    ctx.db.transaction(() => {
      deleteMedia(ctx.db, row);
      recordMutation(ctx, c, 'user_media', row.itemid);
    })();
    return c.body(null, 204);
  });
};
