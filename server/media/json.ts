import { imageObject } from './image-sizes.ts';
import type { DocumentMeta, EncodingMeta, ImageMeta, VideoRow } from './repo.ts';

/**
 * Where this server serves media files (outside `/api/2.0`, like a real site's CDN):
 * `/igi/<guid>` (original) and `/igi/<guid>.<size>`, `/video/<guid>/<encoding>`, `/documents/<guid>/<filename>`.
 */
export const imageUrl = (origin: string, guid: string): string => `${origin}/igi/${guid}`;
export const encodingUrl = (origin: string, guid: string, name: string): string => `${origin}/video/${guid}/${name}`;
export const documentUrl = (origin: string, guid: string, filename: string): string =>
  `${origin}/documents/${guid}/${encodeURIComponent(filename)}`;

export type ImageJson = Record<string, string | number>;

export function imageJson(origin: string, image: Pick<ImageMeta, 'imageid' | 'guid'>): ImageJson {
  return imageObject(image.imageid, image.guid, imageUrl(origin, image.guid));
}

const ratioOf = (width: number, height: number): string => (width * 3 === height * 4 ? 'FOUR_THREE' : 'VARIABLE');

/** Image detail of reference 2.11. */
export function imageDetailJson(origin: string, image: ImageMeta) {
  return {
    image: imageJson(origin, image),
    srcid: image.srcid,
    width: image.width,
    height: image.height,
    ratio: ratioOf(image.width, image.height),
    markup: image.markup,
    exif: JSON.parse(image.exif) as Record<string, unknown>,
  };
}

/** Video detail of reference 2.11; also the `data` of a step whose media type is `video`. */
export function videoDetailJson(
  origin: string,
  video: VideoRow,
  encodings: EncodingMeta[],
  poster: ImageMeta | undefined,
) {
  return {
    videoid: video.videoid,
    guid: video.guid,
    duration: video.duration_ms,
    filename: video.filename,
    width: video.width,
    height: video.height,
    srcid: null,
    image: poster
      ? {
          exif: JSON.parse(poster.exif) as Record<string, unknown>,
          height: poster.height,
          image: imageJson(origin, poster),
          markup: poster.markup,
          ratio: ratioOf(poster.width, poster.height),
          srcid: poster.srcid,
          width: poster.width,
        }
      : null,
    encodings: encodings.map((e) => ({
      codecs: e.codecs,
      format: e.format,
      height: e.height,
      width: e.width,
      mime: e.mime,
      url: encodingUrl(origin, video.guid, e.name),
      ...(e.max_video_bitrate !== null ? { max_video_bitrate: e.max_video_bitrate } : {}),
    })),
    meta: JSON.parse(video.meta) as Record<string, unknown>,
  };
}

/** The site's page that shows a document (iFixit's `view_url`: site-relative, without scheme or host). */
export const documentViewPath = (guid: string, filename: string): string =>
  `/Document/${guid}/${encodeURIComponent(filename)}`;

/**
 * A guide's document: the reference names the array only; iFixit's Document adds `download_url`, `view_url`
 * and `pages` (sent when known).
 */
export function documentJson(origin: string, doc: DocumentMeta) {
  const url = documentUrl(origin, doc.guid, doc.filename);
  return {
    type: 'Document',
    documentid: doc.documentid,
    guid: doc.guid,
    title: doc.title,
    filename: doc.filename,
    mime: doc.mime,
    size: doc.size,
    url,
    download_url: url,
    view_url: documentViewPath(doc.guid, doc.filename),
    ...(doc.pages !== null ? { pages: doc.pages } : {}),
  };
}
