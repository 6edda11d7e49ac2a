import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAUNCH_HEADER, startWebShell, type RunningWebShell } from '../../electron/web/server.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { startTestSite } from '../server/helpers.ts';
import { allLocalGuides, mediaOf, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// The web shell's media route over real HTTP, after a real sync: pictures from the pictures database,
// other media from files, and nothing else, whatever the address asks for.
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
let shell: RunningWebShell;
const staticDir = makeTempDir('media-route-static');
const pictures: string[] = [];
const files: string[] = [];

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  app = makeServices();
  unwrap(
    await app.services.api.signIn({
      siteUrl: site.url,
      email: DEMO_ACCOUNTS.tech1.email,
      password: DEMO_ACCOUNTS.tech1.password,
    }),
  );
  unwrap(await app.services.api.syncNow());
  await site.close();
  for (const { guideid } of await allLocalGuides(app.services.api)) {
    for (const url of mediaOf(unwrap(await app.services.api.getGuide(guideid)))) {
      const stored = app.services.resolveMedia(url);
      if (stored?.data) pictures.push(url);
      else if (stored?.path) files.push(url);
    }
  }
  fs.writeFileSync(path.join(staticDir.dir, 'index.html'), '<!doctype html><title>shell</title>');
  shell = await startWebShell({ services: app.services, staticDir: staticDir.dir });
});
afterAll(async () => {
  await shell?.close();
  await app?.services.close();
  if (app) fs.rmSync(app.dataDir, { recursive: true, force: true });
  staticDir.remove();
});

/** Changes the database with the app closed (it holds the file alone while open: db/open.ts), then opens it again. */
async function whileClosed(edit: (db: Database.Database) => void): Promise<void> {
  await shell.close();
  await app.services.close();
  const db = new Database(path.join(app.dataDir, 'fieldguide.sqlite'));
  try {
    edit(db);
  } finally {
    db.close();
  }
  app = makeServices(app.dataDir);
  shell = await startWebShell({ services: app.services, staticDir: staticDir.dir });
}

const get = (address: string) => fetch(`${shell.url}/media/${address}`, { headers: { [LAUNCH_HEADER]: shell.secret } });

describe('the media route of the web shell', () => {
  it('serves a stored picture and a stored file with their type and length, the site stopped', async () => {
    expect(pictures.length).toBeGreaterThan(0);
    expect(files.length).toBeGreaterThan(0);
    for (const url of [pictures[0]!, files[0]!]) {
      const stored = app.services.resolveMedia(url)!;
      const response = await get(encodeURIComponent(url));
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toBe(stored.mime);
      const body = Buffer.from(await response.arrayBuffer());
      expect(body.length).toBe(stored.bytes);
      expect(body.equals(stored.data ?? fs.readFileSync(stored.path!))).toBe(true);
    }
  });

  it('refuses addresses the library has not indexed, and paths that would leave the media folder', async () => {
    const refused = [
      encodeURIComponent(`${site.url}/igi/not-synced.standard`),
      encodeURIComponent('../fieldguide.sqlite'),
      '..%2F..%2F..%2Fetc%2Fpasswd',
      encodeURIComponent('file:///etc/passwd'),
    ];
    for (const address of refused) expect((await get(address)).status, address).toBe(404);
    expect((await get('%E0%A4%A')).status).toBe(400);
  });

  it(
    'answers an address with alternatives with the first one stored, ' +
      'not to be cached, and the stored one for good',
    async () => {
      const url = pictures[0]!;
      const missing = `${site.url}/igi/not-synced`;
      const neither = encodeURIComponent(`${site.url}/igi/neither`);
      const standIn = await get(`${encodeURIComponent(missing)}?or=${neither}&or=${encodeURIComponent(url)}&live=1`);
      expect(standIn.status).toBe(200);
      expect(standIn.headers.get('cache-control')).toBe('no-store');
      expect(Buffer.from(await standIn.arrayBuffer()).equals(app.services.resolveMedia(url)!.data!)).toBe(true);
      const first = await get(`${encodeURIComponent(url)}?or=${encodeURIComponent(missing)}`);
      expect(first.headers.get('cache-control')).toMatch(/immutable/);
      expect((await get(`${encodeURIComponent(missing)}?live=1`)).status).toBe(404);
    },
  );

  it('refuses an index row whose stored name was tampered to point outside the media folder', async () => {
    const url = files[0]!;
    let stored = { file: '', bytes: 0 };
    await whileClosed((db) => {
      stored = db.prepare('SELECT file, bytes FROM media WHERE url = ?').get(url) as { file: string; bytes: number };
      // The right length too, so only the name check stands between the route and the database.
      const target = path.join(app.dataDir, 'fieldguide.sqlite');
      db.prepare('UPDATE media SET file = ?, bytes = ? WHERE url = ?').run(
        '../fieldguide.sqlite',
        fs.statSync(target).size,
        url,
      );
    });
    expect((await get(encodeURIComponent(url))).status).toBe(404);
    const restore = 'UPDATE media SET file = ?, bytes = ?, status = ? WHERE url = ?';
    await whileClosed((db) => db.prepare(restore).run(stored.file, stored.bytes, 'done', url));
    expect((await get(encodeURIComponent(url))).status).toBe(200);
  });
});
