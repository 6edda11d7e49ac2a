import type { ApiTransport } from './transport.ts';
import { currentMediaWire, mediaItemWire, uploadWire } from './wire/user-media.ts';

// The technician's own media (`/user/media`, reference 4.10): where files attached to step fields go.

/** Uploads a file under `name`; answers the site's media item id. */
export async function uploadMedia(t: ApiTransport, name: string, bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  return (await t.request('POST', '/user/media/uploads', { query: { file: name }, bytes, schema: uploadWire })).id;
}

/** The id of the technician's most recent media item named `name`, if the site has one (a lost upload that landed). */
export async function findUpload(t: ApiTransport, name: string): Promise<number | null> {
  // Parsed here rather than by the transport: an answer of another shape fails the upload (it is not retried).
  const items = currentMediaWire.parse(await t.request('GET', '/user/media/current', { query: { limit: 200, order: 'DESC' } }));
  for (const item of items) {
    const parsed = mediaItemWire.safeParse(item);
    if (parsed.success && (parsed.data.name ?? parsed.data.filename) === name) return parsed.data.id ?? parsed.data.itemid ?? null;
  }
  return null;
}
