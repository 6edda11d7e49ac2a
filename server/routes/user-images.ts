import { requireUser } from '../http/auth.ts';
import { readBodyBytes } from '../http/body.ts';
import type { RouteModule } from '../http/env.ts';
import { HttpError, invalid, missingField } from '../http/errors.ts';
import { parsePaging } from '../http/paging.ts';
import { siteOrigin } from '../http/urls.ts';
import { imageDetailJson } from '../media/json.ts';
import { getImageMeta, type ImageMeta } from '../media/repo.ts';
import { recordMutation } from '../testing/audit.ts';
import { imageSize } from '../media/png.ts';
import { gifSize, kindOf, storeUpload } from '../user-media/repo.ts';

// What iFixit's media manager takes (its description): "The maximum file size is 80 MB and the minimum dimensions
// are 50x50 pixels." (the reference's own uploads, /user/media/uploads, keep their 25 MB).
const MAX_IMAGE_BYTES = 80 * 1024 * 1024;
const MIN_PIXELS = 50;

/**
 * iFixit's media manager for images (`/user/media/images`, the `ifixit` dialect's uploads: http/dialect.ts):
 * the raw image as the body, its name in `?file=`, answered with the image and its dimensions; at most 80 MB and
 * at least 50x50 pixels, as iFixit's description says.
 */
export const userImagesRoutes: RouteModule = (api, ctx) => {
  api.post('/user/media/images', async (c) => {
    const user = requireUser(c);
    const name = c.req.query('file')?.trim();
    if (!name) throw missingField('file');
    const kind = kindOf(name);
    if (kind?.type !== 'GuideImage') throw invalid('file', 'invalid_value', `${name}: only images are taken here`);
    const contentType = c.req.header('Content-Type')?.split(';')[0]?.trim().toLowerCase() ?? '';
    if (!contentType.startsWith('image/'))
      throw new HttpError(415, 'The image is the request body, sent with its image/* Content-Type');
    const bytes = await readBodyBytes(c, MAX_IMAGE_BYTES, 'The image');
    if (bytes.length === 0) throw invalid('file', 'empty', 'The uploaded file is empty');
    const size = imageSize(bytes) ?? gifSize(bytes);
    if (size && (size.width < MIN_PIXELS || size.height < MIN_PIXELS))
      throw invalid(
        'file',
        'invalid_value',
        `The image must be at least ${MIN_PIXELS}x${MIN_PIXELS} pixels (it is ${size.width}x${size.height})`,
      );
    const stored = ctx.db.transaction(() => {
      const row = storeUpload(ctx.db, { userid: user.userid, name, bytes, now: ctx.clock.now() });
      if (typeof row !== 'string') recordMutation(ctx, c, 'user_media', row.itemid);
      return row;
    })();
    if (typeof stored === 'string' || stored.imageid === null)
      throw invalid('file', 'invalid_value', `${name}: ${String(stored)}`);
    return c.json(imageDetailJson(siteOrigin(c), getImageMeta(ctx.db, String(stored.imageid))!));
  });

  api.get('/user/media/images', (c) => {
    const user = requireUser(c);
    const paging = parsePaging((name) => c.req.query(name));
    const rows = ctx.db
      .prepare(
        `SELECT imageid FROM user_media WHERE userid = ? AND imageid IS NOT NULL
         ORDER BY itemid ${paging.order} LIMIT ? OFFSET ?`,
      )
      .pluck()
      .all(user.userid, paging.limit, paging.offset) as number[];
    const origin = siteOrigin(c);
    const images = rows
      .map((id) => getImageMeta(ctx.db, String(id)))
      .filter((image): image is ImageMeta => image !== undefined);
    return c.json(images.map((image) => imageDetailJson(origin, image)));
  });
};
