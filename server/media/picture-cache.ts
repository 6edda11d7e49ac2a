import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { renderPicture, type PictureSpec } from './picture.ts';
import { withTextChunk } from './png.ts';

let budget = 48 * 1024 * 1024;
const cache = new Map<string, Buffer>();
let bytes = 0;

/**
 * A folder of drawn pictures shared by every site process of one test run (FIELDGUIDE_PICTURE_DIR, set by
 * the test run's global set-up for its workers and the processes they start, and removed after it): a
 * picture is drawn once per run, not once per test file. Drawing the demo's pictures costs a site process
 * about 2.5 s of CPU, which most test files paid again. The folder is only ever written by the same code
 * (one run), so a picture's key needs no version. Unset, nothing is kept on disk.
 */
export const PICTURE_DIR_ENV = 'FIELDGUIDE_PICTURE_DIR';

/** The cache's size in bytes (`--picture-cache-mb`): the bench keeps a whole generated site drawn. */
export function setPictureCacheBudget(bytes: number): void {
  budget = bytes;
}

/**
 * A drawn variant, kept in a small LRU (48 MiB) so a client fetching the same thumbnails again, or
 * several clients syncing one site, does not pay for the drawing twice. Keyed by the picture (spec
 * without its tag) and size; the tag is added to the bytes on the way out.
 */
export function cachedPicture(spec: PictureSpec, width: number, height: number): Buffer {
  const { tag, ...picture } = spec;
  const png = drawn(picture, width, height);
  return tag === undefined ? png : withTextChunk(png, 'Comment', tag);
}

/** Where the shared folder keeps the picture of `key` (spec and size), or null when there is none. */
export function sharedPictureFile(key: string): string | null {
  const dir = process.env[PICTURE_DIR_ENV];
  return dir ? path.join(dir, `${createHash('sha256').update(key).digest('hex')}.png`) : null;
}

/** The key of a picture at a size: its spec without the tag, and the size. */
export function pictureKey(spec: Omit<PictureSpec, 'tag'>, width: number, height: number): string {
  return `${JSON.stringify(spec)}@${width}x${height}`;
}

function drawn(spec: PictureSpec, width: number, height: number): Buffer {
  const key = pictureKey(spec, width, height);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const png = shared(key, () => renderPicture(spec, width, height));
  cache.set(key, png);
  bytes += png.length;
  for (const [oldest, value] of cache) {
    if (bytes <= budget) break;
    cache.delete(oldest);
    bytes -= value.length;
  }
  return png;
}

/** The picture from the shared folder, or drawn and left there (whole: written aside, then renamed). */
function shared(key: string, draw: () => Buffer): Buffer {
  const file = sharedPictureFile(key);
  if (file === null) return draw();
  try {
    return fs.readFileSync(file);
  } catch {
    // Not drawn yet in this run (or the folder is gone): draw it.
  }
  const png = draw();
  try {
    const aside = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(aside, png);
    fs.renameSync(aside, file);
  } catch {
    // A folder that cannot be written only costs the next process the drawing.
  }
  return png;
}
