import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/types.ts';
import { startDemoSite, startSite } from '../../server/site.ts';
import { seedDemoPeople } from '../../server/users/seed.ts';
import { api, signIn } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'fieldguide-site-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('startSite / startDemoSite', () => {
  it('keeps a persisted demo site as it was: no second seed, tokens survive a restart', async () => {
    const dbFile = join(dir, 'demo.sqlite');
    const first = await startDemoSite({ dbFile });
    const admin = await signIn(first, 'admin');
    const usersBefore = (await api(first, 'GET', '/users', { query: { limit: 200 } })).body.length;
    await first.close();

    const second = await startDemoSite({ dbFile });
    try {
      expect(second.port).not.toBe(0);
      expect((await api(second, 'GET', '/user', { token: admin.token })).body.userid).toBe(admin.userid);
      expect((await api(second, 'GET', '/users', { query: { limit: 200 } })).body).toHaveLength(usersBefore);
    } finally {
      await second.close();
    }
  });

  it('refuses a file whose seed died half-way instead of seeding on top of it', async () => {
    const dbFile = join(dir, 'interrupted.sqlite');
    const failing = (db: Db) => {
      seedDemoPeople(db);
      throw new Error('power cut');
    };
    await expect(startSite({ dbFile, seed: failing })).rejects.toThrow('power cut');
    await expect(startSite({ dbFile, seed: seedDemoPeople })).rejects.toThrow(/did not finish/);
  });

  it('closes while a client holds a keep-alive connection open', async () => {
    const site = await startSite();
    const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    const socket = await new Promise<Socket>((resolve, reject) => {
      const request = http.get(`${site.apiUrl}/users`, { agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(request.socket!));
      });
      request.on('error', reject);
    });
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    expect(socket.destroyed).toBe(false); // idle in the agent's pool, kept alive
    await site.close(); // would wait for the idle connection if the site did not close it
    await closed;
    agent.destroy();
  });

  it('starts an empty site when no seed is given', async () => {
    const site = await startSite();
    try {
      expect((await api(site, 'GET', '/users')).body).toEqual([]);
    } finally {
      await site.close();
    }
  });
});
