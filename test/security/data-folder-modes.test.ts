import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';
import { doWork, photoAndQuizGuide } from '../helpers/technicians.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { startTestSite } from '../server/helpers.ts';

// Issue 26, finding 8: the README says the data folder is 0700 and its files 0600, but `attachments/`
// and `media/` were 0755 and `fieldguide.lock` 0644. Real core, real files: everything the app makes in a
// sync, a session with a photo and a salvage of a damaged database is walked.
let site: RunningSite;
const folder = makeTempDir('modes');

beforeAll(async () => {
  site = await startTestSite({ demo: true });
});
afterAll(async () => {
  await site?.close();
  folder.remove();
});

/** Every entry under `dir` whose mode is not `0700` (folders) or `0600` (files), with its mode. */
function loose(dir: string): string[] {
  const found: string[] = [];
  for (const name of fs.readdirSync(dir, { recursive: true }).map(String)) {
    const stat = fs.lstatSync(path.join(dir, name));
    const mode = stat.mode & 0o777;
    const want = stat.isDirectory() ? 0o700 : 0o600;
    if (mode !== want) found.push(`${name} ${mode.toString(8)}`);
  }
  return found;
}

describe('the data folder is for its owner only', () => {
  it('after a sync, a session with a photo and a salvage, every folder is 0700 and every file 0600', async () => {
    // The test runs under the usual umask (022), as the app would.
    const umask = process.umask();
    expect(umask & 0o077).not.toBe(0o077);
    const first = makeServices(folder.dir);
    try {
      await signInAndSync(first.services, site.url);
      const guide = unwrap(await first.services.api.getGuide(photoAndQuizGuide(site)));
      await doWork(first.services.api, guide, 'MODES-1');
      expect(fs.readdirSync(path.join(folder.dir, 'attachments'), { recursive: true }).length).toBeGreaterThan(0);
      expect(fs.readdirSync(path.join(folder.dir, 'media')).length).toBeGreaterThan(0);
      expect(loose(folder.dir)).toEqual([]);
    } finally {
      await first.services.close();
    }
    // A damaged database (here: emptied) is set aside and salvaged into a fresh one at the next start.
    fs.truncateSync(path.join(folder.dir, 'fieldguide.sqlite'), 0);
    const second = makeServices(folder.dir);
    try {
      expect(unwrap(await second.services.api.getSyncState()).repair?.kind).toBe('salvaged');
      // Nothing of an empty file could be read: the technician signs in again and the library comes back.
      await signInAndSync(second.services, site.url);
      expect(loose(folder.dir)).toEqual([]);
    } finally {
      await second.services.close();
    }
  });

  it("a data folder an earlier version left with the umask modes is made the owner's at the next start", async () => {
    for (const dir of ['attachments', 'media', 'media/.partial']) fs.chmodSync(path.join(folder.dir, dir), 0o755);
    for (const file of ['fieldguide.lock', 'media/pictures.sqlite']) fs.chmodSync(path.join(folder.dir, file), 0o644);
    const [photo] = fs.readdirSync(path.join(folder.dir, 'attachments'));
    fs.chmodSync(path.join(folder.dir, 'attachments', photo!), 0o644);
    expect(loose(folder.dir).length).toBeGreaterThan(4);
    const app = makeServices(folder.dir);
    await app.services.close();
    expect(loose(folder.dir)).toEqual([]);
  });
});
