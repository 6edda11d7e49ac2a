import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoWorkshop } from '../../server/demo-workshop.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// Issue 14, "the demo workshop is open to every website", in a real browser: Chromium on a page of another
// site tries what the review's page did (sign in as tech1, read the site), and a page whose name was made
// to point at 127.0.0.1 (DNS rebinding, here Chromium's host resolver rules) tries it as the site's own
// origin. The demo workshop is started as both shells start it. Needs /usr/bin/chromium (CHROMIUM_PATH).

const tmp = makeTempDir('security-browser');
let demo: Awaited<ReturnType<typeof startDemoWorkshop>>;
let demoPort: number;
let attacker: http.Server;
let attackerPort: number;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(executablePath))
    throw new Error(`Chromium is not at ${executablePath}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  attacker = http.createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html');
    res.end('<!doctype html><title>A page the technician visits</title><p>Nothing to see here.</p>');
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerPort = (attacker.address() as AddressInfo).port;
  [demo, browser] = await Promise.all([
    startDemoWorkshop(tmp.dir, {
      uncheckedBecause: 'a page of another site makes Chromium post what no client sends (a sign-in with no JSON body)',
    }),
    chromium.launch({
      executablePath,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        // evil.test is this machine, as a rebinding attacker's name becomes.
        '--host-resolver-rules=MAP evil.test 127.0.0.1',
        '--disable-features=HttpsUpgrades',
      ],
    }),
  ]);
  demoPort = Number(new URL(demo.url).port);
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
  await demo?.close();
  attacker?.closeAllConnections();
  await new Promise((resolve) => attacker?.close(resolve));
  tmp.remove();
});

const tokensIssued = (): number => {
  const db = new Database(path.join(tmp.dir, 'demo-site.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM tokens').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('Chromium on a page of another site', () => {
  it('cannot sign in to the demo workshop, even with the right password, nor read it', async () => {
    await page.goto(`http://evil.test:${attackerPort}/`);
    expect(await page.title()).toBe('A page the technician visits');
    const before = tokensIssued();
    const outcome = await page.evaluate(
      async ({ api, email, passwords }) => {
        const tell = async (request: Promise<Response>): Promise<string> => {
          try {
            const response = await request;
            return response.type === 'opaque' ? 'opaque' : `${response.status} ${await response.text()}`;
          } catch {
            return 'blocked';
          }
        };
        const results: Record<string, string> = {};
        for (const password of passwords) {
          const body = JSON.stringify({ email, password });
          // What the review's page did: a JSON sign-in (preflighted), then a form-like one (not preflighted).
          results[`json ${password}`] = await tell(
            fetch(`${api}/user/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }),
          );
          results[`text ${password}`] = await tell(
            fetch(`${api}/user/token`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body }),
          );
          // no-cors: the page can never read the answer; the site must not act on it either (tokens below).
          results[`no-cors ${password}`] = await tell(
            fetch(`${api}/user/token`, { method: 'POST', mode: 'no-cors', body }),
          );
        }
        results.read = await tell(fetch(`${api}/guides?limit=1`));
        results.workLog = await tell(fetch(`${api}/work_log`, { headers: { Authorization: 'api 0000' } }));
        return results;
      },
      {
        api: `${demo.url}/api/2.0`,
        email: DEMO_ACCOUNTS.tech1.email,
        passwords: [DEMO_ACCOUNTS.tech1.password, demo.account.password],
      },
    );
    for (const [attempt, result] of Object.entries(outcome)) {
      expect(result, attempt).toMatch(/^(blocked|opaque)$/);
    }
    expect(tokensIssued()).toBe(before);
  });

  it('a page whose name points at the demo workshop (DNS rebinding) gets 421 for every request', async () => {
    const before = tokensIssued();
    const first = await page.goto(`http://evil.test:${demoPort}/api/2.0/guides?limit=1`);
    expect(first?.status()).toBe(421);
    // Now the page is "same-origin" with the demo workshop's port: it can send and read anything.
    const answers = await page.evaluate(
      async (body) => {
        const signIn = await fetch('/api/2.0/user/token', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        });
        const read = await fetch('/api/2.0/work_log');
        return { signIn: `${signIn.status} ${await signIn.text()}`, read: read.status };
      },
      JSON.stringify({ email: DEMO_ACCOUNTS.tech1.email, password: demo.account.password }),
    );
    expect(answers.signIn).toMatch(/^421 /);
    expect(answers.signIn).not.toContain('authToken');
    expect(answers.read).toBe(421);
    expect(tokensIssued()).toBe(before);
  });
});
