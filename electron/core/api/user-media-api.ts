import type { ApiTransport } from './transport.ts';
import { currentMediaWire, mediaItemWire, uploadWire } from './wire/user-media.ts';

// The technician's own media (`/user/media`, reference 4.10): where files attached to step fields go.

/** Uploads a file under `name`; answers the site's media item id. */
export async function uploadMedia(t: ApiTransport, name: string, bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  return (await t.request('POST', '/user/media/uploads', { query: { file: name }, bytes, schema: uploadWire })).id;
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

/** The technician's recent media items named `name`, oldest first: a lost upload that landed, or two of them. */
export async function findUploads(t: ApiTransport, name: string): Promise<Upload[]> {
  // Parsed here rather than by the transport: an answer of another shape fails the upload (it is not retried).
  const items = currentMediaWire.parse(await t.request('GET', '/user/media/current', { query: { limit: 200, order: 'DESC' } }));
  const found: Upload[] = [];
  for (const item of items) {
    const parsed = mediaItemWire.safeParse(item);
    if (!parsed.success || (parsed.data.name ?? parsed.data.filename) !== name) continue;
    const id = parsed.data.id ?? parsed.data.itemid;
    if (id !== null && id !== undefined) found.push({ id, type: parsed.data.type ?? typeOf(name) });
  }
  return found.sort((a, b) => a.id - b.id);
}

/** Removes one of the technician's media items (a second copy a slow site made). */
export async function deleteUpload(t: ApiTransport, upload: Upload): Promise<void> {
  await t.request('DELETE', `/user/media/${encodeURIComponent(upload.type)}/${upload.id}`);
}
