import { fileResponse } from '../media/file-response.ts';
import { isFlagId } from '../guides/flags.ts';
import { isImageSize, variantDimensions, type ImageSize } from '../media/image-sizes.ts';
import { imageDetailJson, videoDetailJson } from '../media/json.ts';
import { getDocumentFile, getEncodingBytes, getEncodings, getImageMeta, getUploadedImageBytes, getVideo } from '../media/repo.ts';
import { cachedPicture } from '../media/picture-cache.ts';
import type { PictureSpec } from '../media/picture.ts';
import type { RouteModule } from '../http/env.ts';
import { notFound } from '../http/errors.ts';
import { siteOrigin } from '../http/urls.ts';

const IMMUTABLE = { 'Cache-Control': 'public, max-age=31536000, immutable' };

/**
 * Reference 4.7 (image and video detail) and the media files themselves, served outside `/api/2.0`
 * like a real site's CDN: `/igi/<guid>[.<size>]`, `/video/<guid>/<encoding>`, `/documents/<guid>/<name>`,
 * `/flags/<FLAGID>.png`.
 */
export const mediaRoutes: RouteModule = (api, ctx, site) => {
  api.get('/media/images/:id', (c) => {
    const image = getImageMeta(ctx.db, c.req.param('id'));
    if (!image) throw notFound('No such image');
    return c.json(imageDetailJson(siteOrigin(c), image));
  });

  api.get('/media/videos/:id', (c) => {
    const video = getVideo(ctx.db, c.req.param('id'));
    if (!video) throw notFound('No such video');
    const poster = video.imageid === null ? undefined : getImageMeta(ctx.db, String(video.imageid));
    return c.json(videoDetailJson(siteOrigin(c), video, getEncodings(ctx.db, video.videoid), poster));
  });

  site.get('/igi/:file', (c) => {
    const file = c.req.param('file');
    const dot = file.indexOf('.');
    const guid = dot < 0 ? file : file.slice(0, dot);
    const size = dot < 0 ? 'original' : file.slice(dot + 1);
    const image = /^[A-Za-z0-9]+$/.test(guid) && isImageSize(size) ? getImageMeta(ctx.db, guid) : undefined;
    if (!image) throw notFound('No such image');
    if (image.spec === null) {
      // Uploads are served as they came for every size: this server does not resample photos.
      const bytes = getUploadedImageBytes(ctx.db, image.imageid);
      if (!bytes) throw notFound('No such image');
      return fileResponse(c, bytes, image.mime, IMMUTABLE);
    }
    const { width, height } = variantDimensions(size as ImageSize, image.width, image.height);
    return fileResponse(c, cachedPicture(JSON.parse(image.spec) as PictureSpec, width, height), 'image/png', IMMUTABLE);
  });

  site.get('/video/:guid/:name', (c) => {
    const found = getEncodingBytes(ctx.db, c.req.param('guid'), c.req.param('name'));
    if (!found) throw notFound('No such video file');
    return fileResponse(c, found.bytes, found.mime, IMMUTABLE);
  });

  site.get('/documents/:guid/:filename', (c) => {
    const found = getDocumentFile(ctx.db, c.req.param('guid'));
    if (!found || found.filename !== c.req.param('filename')) throw notFound('No such document');
    const ascii = found.filename.replace(/[^\x20-\x7e]|"/g, '_');
    return fileResponse(c, found.bytes, found.mime, { 'Content-Disposition': `inline; filename="${ascii}"` });
  });

  site.get('/flags/:file', (c) => {
    const flagid = c.req.param('file').replace(/\.png$/, '');
    if (!isFlagId(flagid) || !c.req.param('file').endsWith('.png')) throw notFound('No such flag');
    const hue = flagid === 'DEATH' || flagid === 'DANGER' ? 0 : 210;
    return fileResponse(c, cachedPicture({ label: flagid.replace(/^GUIDE_/, '').replace(/_/g, ' '), hue, pattern: 'plain', seed: 1 }, 96, 72), 'image/png', IMMUTABLE);
  });
};
