import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Agent, fetch as fetchWith } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_PASSWORD_FILE, startDemoWorkshop } from '../../server/demo-workshop.ts';
import { startDemoSite } from '../../server/site.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { rawRequest } from './http.ts';
import { MALFORMED_ON_PURPOSE } from '../server/helpers.ts';

// Issue 14, "the demo workshop is open to every website": the in-process reference server answered
// `Access-Control-Allow-Origin: *` with no Host check and public demo passwords, so a page the technician
// visited signed in as tech1 and read and wrote the work log. The demo workshop here is started the way
// both shells start it (startDemoWorkshop), over real HTTP. (The same in Chromium: demo-browser.e2e.test.ts.)

const tmp = makeTempDir('security-demo');
let demo: Awaited<ReturnType<typeof startDemoWorkshop>>;
let port: number;
const dbFile = path.join(tmp.dir, 'demo-site.sqlite');

beforeAll(async () => {
  demo = await startDemoWorkshop(tmp.dir);
  port = Number(new URL(demo.url).port);
});
afterAll(async () => {
  await demo.close();
  tmp.remove();
});

const tokensIssued = (): number => {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM tokens').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

const signInBody = (password: string) => JSON.stringify({ email: DEMO_ACCOUNTS.tech1.email, password });

describe('a page of another site gets nothing from the demo workshop', () => {
  it('a cross-origin preflight gets no CORS grant', async () => {
    const preflight = await rawRequest(port, {
      method: 'OPTIONS',
      path: '/api/2.0/user/token',
      headers: {
        Host: `127.0.0.1:${port}`,
        Origin: 'http://evil.test',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
        ...MALFORMED_ON_PURPOSE,
      },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('a cross-origin sign-in, even with the right password, is refused and issues no token', async () => {
    const before = tokensIssued();
    for (const contentType of ['application/json', 'text/plain']) {
      const answer = await rawRequest(port, {
        method: 'POST',
        path: '/api/2.0/user/token',
        headers: {
          Host: `127.0.0.1:${port}`,
          Origin: 'http://evil.test',
          'Content-Type': contentType,
          ...MALFORMED_ON_PURPOSE,
        },
        body: signInBody(demo.account.password),
      });
      expect(answer.status, answer.text).toBe(403);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      expect(answer.text).not.toContain('authToken');
    }
    // `Origin: null` (a sandboxed frame, a file) is another site too.
    const sandboxed = await rawRequest(port, {
      method: 'POST',
      path: '/api/2.0/user/token',
      headers: { Host: `127.0.0.1:${port}`, Origin: 'null', ...MALFORMED_ON_PURPOSE },
      body: signInBody(demo.account.password),
    });
    expect(sandboxed.status).toBe(403);
    expect(tokensIssued()).toBe(before);
  });

  it('a foreign Host (DNS rebinding) is refused; the loopback names at the site’s own port are answered', async () => {
    for (const host of [
      `evil.test:${port}`,
      `attacker.example:${port}`,
      'evil.test',
      `127.0.0.1.evil.test:${port}`,
      `127.0.0.1:${port + 1}`,
      `localhost:${port + 1}`,
    ]) {
      const answer = await rawRequest(port, {
        method: 'POST',
        path: '/api/2.0/user/token',
        headers: { Host: host, 'Content-Type': 'application/json' },
        body: signInBody(demo.account.password),
      });
      expect(answer.status, `Host: ${host}`).toBe(421);
      expect(answer.text).not.toContain('authToken');
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect(
        (await rawRequest(port, { path: '/api/2.0/guides?limit=1', headers: { Host: host } })).status,
        `Host: ${host}`,
      ).toBe(200);
    }
  });
});

describe('the demo accounts have a password made at install', () => {
  it('is kept in the data folder, readable by its owner only, and the app signs in with it', async () => {
    const file = path.join(tmp.dir, DEMO_PASSWORD_FILE);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(demo.account.password);
    expect(demo.account.password).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    expect(demo.account.password).not.toBe(DEMO_ACCOUNTS.tech1.password);
    if (process.platform !== 'win32') {
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(dbFile).mode & 0o777).toBe(0o600);
    }
    expect(demo.account.email).toBe(DEMO_ACCOUNTS.tech1.email);
    const right = await fetch(`${demo.url}/api/2.0/user/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: signInBody(demo.account.password),
    });
    expect(right.status).toBe(201);
  });

  it('the documented `fieldguide` does not open the app’s demo workshop, for any demo account', async () => {
    for (const account of Object.values(DEMO_ACCOUNTS)) {
      const answer = await fetch(`${demo.url}/api/2.0/user/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: account.email, password: account.password }),
      });
      expect(answer.status, account.email).toBe(401);
    }
  });

  it(
    'a demo site seeded before with `fieldguide` takes the data folder’s password; ' + 'the next start keeps it',
    async () => {
      const old = makeTempDir('security-demo-old');
      try {
        const before = await startDemoSite({ dbFile: path.join(old.dir, 'demo-site.sqlite') });
        await before.close();
        const first = await startDemoWorkshop(old.dir);
        const password = first.account.password;
        // The workshop keeps its port from one start to the next: a connection pooled by the global fetch
        // would carry the next start's request to the site closed before it ("other side closed", when the
        // close has not reached this side yet on a busy machine). Each attempt has a connection of its own.
        const attempt = async (url: string, secret: string) => {
          const agent = new Agent();
          try {
            const answer = await fetchWith(`${url}/api/2.0/user/token`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ email: DEMO_ACCOUNTS.admin.email, password: secret }),
              dispatcher: agent,
            });
            await answer.arrayBuffer();
            return answer;
          } finally {
            await agent.close();
          }
        };
        try {
          expect((await attempt(first.url, DEMO_ACCOUNTS.admin.password)).status).toBe(401);
          expect((await attempt(first.url, password)).status).toBe(201);
        } finally {
          await first.close();
        }
        const second = await startDemoWorkshop(old.dir);
        try {
          expect(second.account.password).toBe(password);
          expect((await attempt(second.url, password)).status).toBe(201);
        } finally {
          await second.close();
        }
      } finally {
        old.remove();
      }
    },
  );

  it('the demo site of the tests and of `npm run server -- --demo` keeps the documented `fieldguide`', async () => {
    const site = await startDemoSite();
    try {
      const answer = await fetch(`${site.apiUrl}/user/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: signInBody(DEMO_ACCOUNTS.tech1.password),
      });
      expect(answer.status).toBe(201);
    } finally {
      await site.close();
    }
  });
});
