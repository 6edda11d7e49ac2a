import { fileResponse } from '../media/file-response.ts';
import { isFlagId } from '../guides/flags.ts';
import { isImageSize, variantDimensions, type ImageSize } from '../media/image-sizes.ts';
import { imageDetailJson, videoDetailJson } from '../media/json.ts';
import { mediaAccess } from '../media/access.ts';
import {
  getDocumentFile,
  getEncodingBytes,
  getEncodings,
  getImageMeta,
  getUploadedImageBytes,
  getVideo,
  mediaOwnerByGuid,
} from '../media/repo.ts';
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
  // Each file and detail answers those who may have it (media/access.ts): anyone for a public guide's
  // media, the uploader and admins for a technician's photo, the guide's readers for a private guide's.
  api.get('/media/images/:id', (c) => {
    const image = getImageMeta(ctx.db, c.req.param('id'));
    if (!image) throw notFound('No such image');
    mediaAccess(ctx.db, c, 'image', { id: image.imageid, ownerid: image.ownerid });
    return c.json(imageDetailJson(siteOrigin(c), image));
  });

  api.get('/media/videos/:id', (c) => {
    const video = getVideo(ctx.db, c.req.param('id'));
    if (!video) throw notFound('No such video');
    mediaAccess(ctx.db, c, 'video', { id: video.videoid, ownerid: video.ownerid });
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
    const cache = mediaAccess(ctx.db, c, 'image', { id: image.imageid, ownerid: image.ownerid });
    if (image.spec === null) {
      // Uploads are served as they came for every size: this server does not resample photos.
      const bytes = getUploadedImageBytes(ctx.db, image.imageid);
      if (!bytes) throw notFound('No such image');
      return fileResponse(c, bytes, image.mime, cache);
    }
    const { width, height } = variantDimensions(size as ImageSize, image.width, image.height);
    const picture = cachedPicture(JSON.parse(image.spec) as PictureSpec, width, height);
    return fileResponse(c, picture, 'image/png', cache);
  });

  site.get('/video/:guid/:name', (c) => {
    const video = mediaOwnerByGuid(ctx.db, 'video', c.req.param('guid'));
    const found = video && getEncodingBytes(ctx.db, c.req.param('guid'), c.req.param('name'));
    if (!video || !found) throw notFound('No such video file');
    return fileResponse(c, found.bytes, found.mime, mediaAccess(ctx.db, c, 'video', video));
  });

  site.get('/documents/:guid/:filename', (c) => {
    const found = getDocumentFile(ctx.db, c.req.param('guid'));
    if (!found || found.filename !== c.req.param('filename')) throw notFound('No such document');
    const cache = mediaAccess(ctx.db, c, 'document', { id: found.documentid, ownerid: found.ownerid });
    const ascii = found.filename.replace(/[^\x20-\x7e]|"/g, '_');
    return fileResponse(c, found.bytes, found.mime, { ...cache, 'Content-Disposition': `inline; filename="${ascii}"` });
  });

  site.get('/flags/:file', (c) => {
    const flagid = c.req.param('file').replace(/\.png$/, '');
    if (!isFlagId(flagid) || !c.req.param('file').endsWith('.png')) throw notFound('No such flag');
    const hue = flagid === 'DEATH' || flagid === 'DANGER' ? 0 : 210;
    const label = flagid.replace(/^GUIDE_/, '').replace(/_/g, ' ');
    return fileResponse(c, cachedPicture({ label, hue, pattern: 'plain', seed: 1 }, 96, 72), 'image/png', IMMUTABLE);
  });
};
