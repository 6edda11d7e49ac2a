import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedPicture, pictureKey, PICTURE_DIR_ENV, sharedPictureFile } from '../../server/media/picture-cache.ts';
import { renderPicture, type PictureSpec } from '../../server/media/picture.ts';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// The folder of drawn pictures one test run shares between its site processes (test/helpers/picture-dir-global.ts).
let folder: ReturnType<typeof makeTempDir>;
let before: string | undefined;
beforeEach(() => {
  folder = makeTempDir('pictures');
  before = process.env[PICTURE_DIR_ENV];
  process.env[PICTURE_DIR_ENV] = folder.dir;
});
afterEach(() => {
  if (before === undefined) delete process.env[PICTURE_DIR_ENV];
  else process.env[PICTURE_DIR_ENV] = before;
  folder.remove();
});

// A spec no other test draws, so this process's own memory of drawn pictures cannot answer first.
const fresh = (label: string): PictureSpec => ({ label, hue: 200, pattern: 'rings', seed: 4242 });

describe('the shared folder of drawn pictures', () => {
  it('keeps a picture it drew, whole, under its key', () => {
    const spec = fresh('KEPT');
    const png = cachedPicture(spec, 64, 48);
    expect(png.equals(renderPicture(spec, 64, 48))).toBe(true);
    const file = sharedPictureFile(pictureKey(spec, 64, 48))!;
    expect(fs.readFileSync(file).equals(png)).toBe(true);
    expect(fs.readdirSync(folder.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('serves a picture another process drew instead of drawing it again', () => {
    const spec = fresh('SHARED');
    const other = encodePng(createCanvas(4, 3, [1, 2, 3]));
    fs.writeFileSync(sharedPictureFile(pictureKey(spec, 64, 48))!, other);
    expect(cachedPicture(spec, 64, 48).equals(other)).toBe(true);
  });

  it('adds the tag to the shared bytes, and draws without a folder', () => {
    const spec = fresh('TAGGED');
    const tagged = cachedPicture({ ...spec, tag: 'guid-1' }, 32, 24);
    expect(tagged.includes(Buffer.from('guid-1', 'latin1'))).toBe(true);
    delete process.env[PICTURE_DIR_ENV];
    expect(sharedPictureFile(pictureKey(spec, 32, 24))).toBeNull();
    expect(cachedPicture(fresh('UNSHARED'), 32, 24).length).toBeGreaterThan(0);
  });
});
