import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// Issue 14, attack 4, over real HTTP: a site answers one of its documents with a 300 MB body and no
// Content-Length. The download must stop at the room the storage budget has left, keep nothing of it,
// and leave the budget intact; every other media file is stored as usual.
const BUDGET = 52_000_000;
const HOSTILE_BYTES = 300 * 1024 * 1024;
let site: RunningSite;
let front: http.Server;
let frontUrl = '';
let hostilePath = '';
let hostileSent = 0;
let app: ReturnType<typeof makeServices>;

/** Streams zeros until `total` or until the client goes away; answers how many bytes were written. */
function endless(res: http.ServerResponse, total: number): void {
  res.writeHead(200, { 'Content-Type': 'application/pdf' }); // chunked: no Content-Length
  const chunk = Buffer.alloc(64 * 1024);
  const pump = (): void => {
    while (hostileSent < total && !res.destroyed) {
      hostileSent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => res.destroy());
  pump();
}

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  // A front for the site that answers the first document asked for with the endless body (the site
  // writes its absolute URLs from the Host it was reached at, so every media URL points here).
  front = http.createServer((req, res) => {
    if (req.url?.startsWith('/documents/') && (hostilePath === '' || hostilePath === req.url)) {
      hostilePath = req.url;
      return endless(res, HOSTILE_BYTES);
    }
    const upstream = http.request(
      { host: '127.0.0.1', port: site.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  app = makeServices();
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await app.services.api.signIn({ siteUrl: frontUrl, email, password }));
});
afterAll(async () => {
  await app?.dispose();
  await new Promise((resolve) => front?.close(resolve));
  await site?.close();
});

describe('a media body without a size', () => {
  it('stops at the room left in the storage budget, keeps nothing of it, and stores the rest', async () => {
    const api = app.services.api;
    unwrap(await api.setStorageBudget(BUDGET));
    await api.syncNow();
    expect(hostilePath).not.toBe('');
    // Read no further than the budget (plus what sockets buffer), not the 300 MB sent at it.
    expect(hostileSent).toBeLessThan(BUDGET + 16 * 1024 * 1024);
    const state = unwrap(await api.getSyncState());
    expect(state.storage.mediaBytes).toBeLessThanOrEqual(BUDGET);
    expect(app.services.resolveMedia(`${frontUrl}${hostilePath}`)).toBeNull();
    // Nothing half-written is left behind under a real name or in the download folder.
    const mediaDir = path.join(app.dataDir, 'media');
    expect(fs.readdirSync(path.join(mediaDir, '.partial'))).toEqual([]);
    const onDisk = fs.readdirSync(mediaDir).filter((name) => name !== '.partial' && !name.startsWith('pictures'));
    const diskBytes = onDisk.reduce((sum, name) => sum + fs.statSync(path.join(mediaDir, name)).size, 0);
    expect(diskBytes).toBeLessThanOrEqual(BUDGET);
    // The other media of the guides are stored: the pictures the steps show among them.
    const guide = unwrap(await api.listGuides({ offset: 0, limit: 1 }));
    expect(guide.items.length).toBe(1);
    expect(state.storage.mediaBytes).toBeGreaterThan(0);
  });
});
