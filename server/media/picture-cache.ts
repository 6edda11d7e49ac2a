import { renderPicture, type PictureSpec } from './picture.ts';
import { withTextChunk } from './png.ts';

let budget = 48 * 1024 * 1024;
const cache = new Map<string, Buffer>();
let bytes = 0;

/**
 * A drawn variant, kept in a small LRU (48 MiB) so a client fetching the same thumbnails again, or
 * several clients syncing one site, does not pay for the drawing twice. Keyed by the picture (spec
 * without its tag) and size; the tag is added to the bytes on the way out.
 */
/** The cache's size in bytes (`--picture-cache-mb`): the bench keeps a whole generated site drawn. */
export function setPictureCacheBudget(bytes: number): void {
  budget = bytes;
}

export function cachedPicture(spec: PictureSpec, width: number, height: number): Buffer {
  const { tag, ...picture } = spec;
  const png = drawn(picture, width, height);
  return tag === undefined ? png : withTextChunk(png, 'Comment', tag);
}

function drawn(spec: PictureSpec, width: number, height: number): Buffer {
  const key = `${JSON.stringify(spec)}@${width}x${height}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const png = renderPicture(spec, width, height);
  cache.set(key, png);
  bytes += png.length;
  for (const [oldest, value] of cache) {
    if (bytes <= budget) break;
    cache.delete(oldest);
    bytes -= value.length;
  }
  return png;
}
