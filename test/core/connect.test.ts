import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { allLocalGuides } from '../helpers/library.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// The connect flows of the App API against the real reference server over real HTTP.
let site: RunningSite;
beforeAll(async () => {
  site = await startDemoSite();
});
afterAll(async () => {
  await site.close();
});

let current: ReturnType<typeof makeServices> | null = null;
function fresh(dataDir?: string) {
  current = makeServices(dataDir);
  return current;
}
afterEach(async () => {
  await current?.dispose();
  current = null;
});

const tech = DEMO_ACCOUNTS.tech1;

/** The tokens kept on this computer: one sealed file per technician (plainCodec in tests: readable). */
function keptTokens(dataDir: string): string[] {
  const dir = path.join(dataDir, 'technicians');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map(
      (name) => (JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8').split('\n')[1]!) as { token: string }).token,
    );
}

describe('connecting to a site', () => {
  it(
    'signs in with e-mail and password, ' + 'reports the user and keeps the token out of every answer and event',
    async () => {
      const { services, events, dataDir } = fresh();
      const result = await services.api.signIn({
        siteUrl: `${site.url}/api/2.0/`,
        email: tech.email,
        password: tech.password,
      });
      expect(result).toMatchObject({
        ok: true,
        value: { site: { url: site.url, demo: false }, user: { username: tech.username }, network: 'online' },
      });
      const [token] = keptTokens(dataDir);
      expect(token!.length).toBeGreaterThan(16);
      const exposed = JSON.stringify([result, await services.api.getStatus(), events]);
      expect(exposed).not.toContain(token!);
      expect(events.map((e) => e.name)).toContain('status');
    },
  );

  it('refuses a wrong password with an unauthorized error in plain words', async () => {
    const { services } = fresh();
    const result = await services.api.signIn({ siteUrl: site.url, email: tech.email, password: 'not-it' });
    expect(result).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'unauthorized', message: 'The site refused the e-mail and password.' }),
    });
    expect(await services.api.getStatus()).toMatchObject({ ok: true, value: { user: null, site: null } });
  });

  it('connects with an API token and refuses a wrong one', async () => {
    const signedIn = await fetch(`${site.apiUrl}/user/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: tech.email, password: tech.password }),
    });
    const { authToken } = (await signedIn.json()) as { authToken: string };
    const { services } = fresh();
    expect(await services.api.connectWithToken({ siteUrl: site.url, token: authToken })).toMatchObject({
      ok: true,
      value: { user: { username: tech.username } },
    });
    expect(await services.api.connectWithToken({ siteUrl: site.url, token: 'forged' })).toMatchObject({
      ok: false,
      error: { code: 'unauthorized', message: 'The site refused this API token.' },
    });
  });

  it('says "no API here" for an address that is not an API 2.0 site', async () => {
    const other = http.createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end('<html>Welcome to our shop</html>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const { services } = fresh();
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const result = await services.api.signIn({ siteUrl: url, email: tech.email, password: tech.password });
      expect(result).toMatchObject({
        ok: false,
        error: {
          code: 'not_found',
          message:
            `${new URL(url).host} answers, but it is not a Dozuki documentation site (API 2.0): ` +
            `check the address.`,
        },
      });
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('says "offline" when nothing answers, and rejects addresses that are not web addresses', async () => {
    const { services } = fresh();
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const offline = await services.api.signIn({
      siteUrl: `http://127.0.0.1:${port}`,
      email: tech.email,
      password: 'x',
    });
    expect(offline).toMatchObject({
      ok: false,
      error: {
        code: 'offline',
        message: `Nothing answers at 127.0.0.1:${port}: check the address, or whether the site is running.`,
      },
    });
    // A new address that does not answer says nothing about the network: no site is in use yet.
    expect(await services.api.getStatus()).toMatchObject({ ok: true, value: { network: 'unknown' } });

    for (const siteUrl of ['ftp://files.example.com', 'http://user:pw@example.com', '   ']) {
      const result = await services.api.signIn({ siteUrl, email: tech.email, password: 'x' });
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
  });

  it('keeps the network state of the site in use when another address is mistyped', async () => {
    const { services } = fresh();
    await services.api.signIn({ siteUrl: site.url, email: tech.email, password: tech.password });
    const wrong = await services.api.signIn({ siteUrl: 'http://127.0.0.1:9', email: tech.email, password: 'x' });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'offline' } });
    expect(await services.api.getStatus()).toMatchObject({
      ok: true,
      value: { network: 'online', site: { url: site.url }, user: { username: tech.username } },
    });
  });

  it(
    'tries an address typed without a scheme as https, ' + 'then as http on this machine, and says which worked',
    async () => {
      const { services } = fresh();
      const typed = site.url.replace(/^http:\/\//, '');
      const result = await services.api.signIn({ siteUrl: typed, email: tech.email, password: tech.password });
      expect(result).toMatchObject({ ok: true, value: { site: { url: site.url }, user: { username: tech.username } } });
      // A public host gets no plain-http fallback: a password never goes unencrypted to the internet by guess.
      expect(
        await services.api.signIn({ siteUrl: 'ftp-less.example.com', email: tech.email, password: 'x' }),
      ).toMatchObject({ ok: false });
    },
  );

  it('says an address typed wrong is wrong, not that a site of part of it could not be found', async () => {
    // "htps//demo workshop" was looked for as a site called htps: "The site did not answer. No site called htps".
    const { services } = fresh();
    const tried = (siteUrl: string) => services.api.signIn({ siteUrl, email: tech.email, password: tech.password });
    expect(await tried('htps//demo workshop')).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'A web address has no spaces: check "htps//demo workshop".' },
    });
    for (const typed of ['htps//demo.example.com', 'https//demo.example.com', 'https:/demo.example.com']) {
      expect(await tried(typed), typed).toMatchObject({
        ok: false,
        error: {
          code: 'invalid_input',
          message:
            `"${typed}" does not begin as a web address does: write its start as https:// (or http://), ` +
            'or leave it out.',
        },
      });
    }
    // A port after the host is not a scheme.
    const typedPort = site.url.replace(/^http:\/\//, '');
    expect(await tried(typedPort)).toMatchObject({ ok: true });
  });

  it('says what to type for a site without a certificate, asked for with https', async () => {
    const { services } = fresh();
    const secure = site.url.replace(/^http:/, 'https:');
    const result = await services.api.signIn({ siteUrl: secure, email: tech.email, password: tech.password });
    expect(result).toMatchObject({ ok: false, error: { code: 'offline' } });
    const said = ' does not answer securely (https) at this address. A workshop server without a certificate is ';
    expect(!result.ok && result.error.message).toContain(`${said}reached with http:// at the start of its address.`);
  });

  it('cancels a sign-in that waits on a site that never answers, and changes nothing', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const hanging = http.createServer(() => undefined);
    hanging.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const { services } = fresh();
      const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
      const pending = services.api.signIn({ siteUrl: url, email: tech.email, password: tech.password });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await services.api.cancelConnect()).toEqual({ ok: true, value: null });
      expect(await pending).toMatchObject({
        ok: false,
        error: { code: 'cancelled', message: 'Connecting was cancelled. Nothing was changed.' },
      });
      expect(await services.api.getStatus()).toMatchObject({
        ok: true,
        value: { site: null, user: null, network: 'unknown' },
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });

  it('is online again at the first answer of the site in use, without waiting for the heartbeat', async () => {
    const folder = makeTempDir('connect-back');
    const dbFile = path.join(folder.dir, 'site.sqlite');
    let own = await startDemoSite({ dbFile });
    try {
      const { services, events } = fresh();
      await services.api.signIn({ siteUrl: own.url, email: tech.email, password: tech.password });
      await own.close();
      expect(await services.api.syncNow()).toMatchObject({ ok: true, value: { status: 'failed' } });
      expect(await services.api.getStatus()).toMatchObject({ ok: true, value: { network: 'offline' } });
      own = await startDemoSite({ dbFile, port: own.port });
      events.length = 0;
      expect(await services.api.syncNow()).toMatchObject({ ok: true, value: { status: 'complete' } });
      expect(await services.api.getStatus()).toMatchObject({ ok: true, value: { network: 'online' } });
      expect(events.filter((e) => e.name === 'network').map((e) => e.payload)).toEqual(['online']);
    } finally {
      await own.close();
      folder.remove();
    }
  });

  it('signs out: the site no longer accepts the token and the app forgets the user', async () => {
    const { services, dataDir } = fresh();
    await services.api.signIn({ siteUrl: site.url, email: tech.email, password: tech.password });
    const [token] = keptTokens(dataDir);
    expect(await services.api.signOut()).toMatchObject({ ok: true, value: { user: null } });
    expect(keptTokens(dataDir)).toEqual([]);
    const after = await fetch(`${site.apiUrl}/user`, { headers: { Authorization: `api ${token}` } });
    expect(after.status).toBe(401);
  });

  it('remembers the site and user across a restart and works offline from what it stored', async () => {
    const first = fresh();
    await first.services.api.signIn({ siteUrl: site.url, email: tech.email, password: tech.password });
    await first.services.close();
    const second = makeServices(first.dataDir);
    try {
      expect(await second.services.api.getStatus()).toMatchObject({
        ok: true,
        value: { site: { url: site.url }, user: { username: tech.username }, network: 'unknown' },
      });
      await second.services.start();
      expect(await second.services.api.getStatus()).toMatchObject({ ok: true, value: { network: 'online' } });
    } finally {
      await second.services.close();
    }
  });

  it("refuses another site while this one's work waits, counting it in words", async () => {
    // A site of its own, stopped once synced: the session started then waits to be sent.
    const first = await startDemoSite();
    const { services } = fresh();
    try {
      await signInAndSync(services, first.url);
      const guideid = (await allLocalGuides(services.api))[0]!.guideid;
      await first.close();
      expect((await services.api.startSession({ guideid, workorderid: 'WO-SWITCH' })).ok).toBe(true);
      const refused = await services.api.signIn({ siteUrl: site.url, email: tech.email, password: tech.password });
      // Before: "1 action(s) and 0 conflict(s) of http://… are not settled yet."
      expect(refused).toMatchObject({
        ok: false,
        error: {
          code: 'conflict',
          message: `${first.url} still has 1 action not sent yet. Let it be sent before connecting to another site.`,
        },
      });
    } finally {
      await first.close().catch(() => {});
    }
  });

  it('opens the demo workshop and signs in as its technician', async () => {
    const { services } = fresh();
    const result = await services.api.connectDemo();
    expect(result).toMatchObject({ ok: true, value: { site: { demo: true }, user: { username: tech.username } } });
  });

  it('checks the arguments that arrive from the renderer', async () => {
    const { services } = fresh();
    expect(await services.invoke('signIn', [{ siteUrl: site.url, email: 42 }])).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await services.invoke('signIn', 'not-a-list')).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await services.invoke('getStatus', ['extra'])).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await services.invoke('constructor', [])).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
