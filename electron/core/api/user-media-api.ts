import { z } from 'zod';
import { PICTURES_ONLY } from '../../shared/field-values.ts';
import { notOffered, type ModuleVia } from './capabilities-api.ts';
import { ApiError } from './errors.ts';
import type { ApiTransport } from './transport.ts';
import { currentMediaWire, mediaItemWire, uploadWire } from './wire/user-media.ts';

// The technician's own media (`/user/media`, reference 4.10): where files attached to step fields go.

/** Where a site takes uploads, as learned (sync/site-modules.ts, `user_media`): the reference's or iFixit's. */
export interface UploadEndpoint {
  via(): ModuleVia | null;
  answeredAt(via: 'uploads' | 'images'): void;
}

/** Pictures iFixit's media manager takes, by extension (its `file` name sets the type). */
const IMAGE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  heic: 'image/heic',
  webp: 'image/webp',
  avif: 'image/avif',
};
const imageTypeOf = (name: string): string | undefined =>
  IMAGE_TYPES[/\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? ''];

/**
 * What iFixit's media manager takes of a picture (its description of POST /user/media/images): "The maximum file
 * size is 80 MB and the minimum dimensions are 50x50 pixels". MB read as the smaller, millions of bytes.
 */
export const MEDIA_MANAGER_PICTURE = { maxBytes: 80 * 1000 * 1000, minPixels: 50 } as const;

/** Whether a site that takes pictures only (iFixit's media manager) takes a file of this name. */
export const takenAsPicture = (name: string): boolean => imageTypeOf(name) !== undefined;

/** `POST /user/media/images` answer (iFixit): the image with its sizes; its `id` names it in a step's value. */
const imageUploadWire = z.object({ image: z.object({ id: z.number().int() }).loose() }).loose();

/**
 * Uploads a file under `name`; answers the id the site gives it (a media item's, or on iFixit the
 * image's). The endpoint the site answered before is asked first; one it lacks (404, 403, 405, 501) is
 * followed by the other, and the one that answered is learned. iFixit's takes pictures only.
 */
export async function uploadMedia(
  t: ApiTransport,
  name: string,
  bytes: Uint8Array<ArrayBuffer>,
  endpoint?: UploadEndpoint,
): Promise<number> {
  const order: ('uploads' | 'images')[] = endpoint?.via() === 'images' ? ['images', 'uploads'] : ['uploads', 'images'];
  const type = imageTypeOf(name);
  let lacking: { request: string; error: ApiError } | null = null;
  for (const via of order) {
    if (via === 'images' && !type) continue;
    try {
      const id =
        via === 'uploads'
          ? ofUpload(
              name,
              await t.request('POST', '/user/media/uploads', { query: { file: name }, bytes, schema: uploadWire }),
            )
          : (
              await t.request('POST', '/user/media/images', {
                query: { file: name },
                bytes,
                contentType: type!,
                schema: imageUploadWire,
              })
            ).image.id;
      endpoint?.answeredAt(via);
      return id;
    } catch (error) {
      const lacks = notOffered(error);
      if (!lacks) throw error;
      lacking = lacks;
    }
  }
  // The file's name is not said: it is the upload's own (`fg-<id>-…`), and the caller names the file as attached.
  if (lacking && !type && endpoint?.via() === 'images') throw new ApiError('http', lacking.request, PICTURES_ONLY, 415);
  throw lacking?.error ?? new ApiError('http', 'POST /user/media/images', PICTURES_ONLY, 415);
}

/** One of the technician's media items: its id and the type its route names. */
export interface Upload {
  id: number;
  type: string;
}

/** The media types of public-shapes.md, by file name: for a site whose items do not say theirs. */
function typeOf(name: string): string {
  if (/\.(png|jpe?g|gif|webp)$/i.test(name)) return 'GuideImage';
  if (/\.(mp4|m4v|mov|webm)$/i.test(name)) return 'GuideVideoObject';
  return 'Document';
}

/**
 * The technician's recent media items named `name`, oldest first: a lost upload that landed, or two of
 * them. iFixit's media manager does not keep names: there, none (the file is sent again).
 */
export async function findUploads(t: ApiTransport, name: string, endpoint?: UploadEndpoint): Promise<Upload[]> {
  if (endpoint?.via() === 'images') return [];
  // Parsed here rather than by the transport: an answer of another shape fails the upload (it is not retried).
  const items = currentMediaWire.parse(
    await t.request('GET', '/user/media/current', { query: { limit: 200, order: 'DESC' } }),
  );
  const found: Upload[] = [];
  for (const item of items) {
    const parsed = mediaItemWire.safeParse(item);
    if (!parsed.success || (parsed.data.name ?? parsed.data.filename) !== name) continue;
    const id = parsed.data.id ?? parsed.data.itemid;
    if (id !== null && id !== undefined) found.push({ id, type: parsed.data.type ?? typeOf(name) });
  }
  return found.sort((a, b) => a.id - b.id);
}

/** The attachment an upload's name belongs to: `fg-<its id>-` (worklog/actions/step-data.ts names them so). */
const ATTACHMENT_OF = /\bfg-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-/i;

/**
 * The media item the site made of this upload. An answer naming another attachment's upload (a faulty site,
 * answers mixed up on the way) is refused, not taken: the step would name a file that is not its own, and
 * the check for second copies would remove its own. A name that says nothing of an attachment (a site that
 * renames uploads) is taken, as before.
 */
function ofUpload(asked: string, answer: { id: number; name?: string | null; filename?: string | null }): number {
  const named = answer.name ?? answer.filename ?? null;
  const ours = ATTACHMENT_OF.exec(asked)?.[1]?.toLowerCase();
  const theirs = named === null ? undefined : ATTACHMENT_OF.exec(named)?.[1]?.toLowerCase();
  if (ours === undefined || theirs === undefined || ours === theirs) return answer.id;
  throw new ApiError(
    'bad_response',
    'POST /user/media/uploads',
    `The site answered the upload of ${asked} with another file (media item ${answer.id}, ${named}), so the ` +
      'answer was not taken. Fieldguide looks for the file on the site before it sends it again.',
  );
}

/** Removes one of the technician's media items (a second copy a slow site made). */
export async function deleteUpload(t: ApiTransport, upload: Upload): Promise<void> {
  await t.request('DELETE', `/user/media/${encodeURIComponent(upload.type)}/${upload.id}`);
}
