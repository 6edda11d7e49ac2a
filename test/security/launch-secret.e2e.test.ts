import type http from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readKeyOf } from '../../electron/web/server.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { launchChromium, startApp } from '../e2e/browser.ts';
import { rawRequest, startListener, type Listener } from './http.ts';

// Issue 26, attacks 2 and 4, in Chromium. The launch cookie was `Path=/; HttpOnly; SameSite=Strict`, but
// cookies ignore ports: a web page sends the tab to a program listening on another loopback port, the
// browser hands that program the cookie, and with it /rpc/getStatus and /rpc/listSessions answered 200.
// And `GET //evil.example/?launch=x` answered `302 Location: //evil.example/`: the path reused as it came.
const demo = capturingDemoWorkshop();
let browser: Browser;
let context: BrowserContext;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
let listener: Listener;

beforeAll(async () => {
  listener = await startListener({ type: 'text/html', body: '<title>Another program</title><p>Hello</p>' });
  [browser, app] = await Promise.all([launchChromium(), startApp({ startDemoWorkshop: demo.startDemoWorkshop })]);
  // A plain browser context: the page gets the secret only as the technician's does, from the printed address.
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await listener?.close();
});

/** What a program holding these request headers gets from the web shell's App API. */
async function replay(headers: http.IncomingHttpHeaders, method: 'getStatus' | 'listSessions'): Promise<number> {
  const forwarded: Record<string, string> = { 'Content-Type': 'application/json', Host: new URL(app.shell.url).host };
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)) forwarded[name] = value;
  }
  const body = JSON.stringify({ args: method === 'listSessions' ? [{}] : [] });
  const answer = await rawRequest(app.shell.port, { method: 'POST', path: `/rpc/${method}`, headers: forwarded, body });
  return answer.status;
}

describe('the launch secret reaches no other program on this computer', () => {
  it('the page opened from the printed address works, and keeps working from the plain address', async () => {
    await page.goto(app.shell.launchUrl);
    expect(new URL(page.url()).search).toBe('');
    await page.getByTestId('connect-demo').click();
    await page.getByTestId('library').waitFor();
    await page.goto(app.shell.url);
    await page.getByTestId('library').waitFor();
  });

  it('a program on another loopback port the tab is sent to gets nothing it can call the App API with', async () => {
    await page.goto(`${listener.url}/welcome`);
    const received = listener.requests.map((request) => request.headers);
    await page.getByText('Hello').waitFor();
    // The page and whatever the browser asks of that program next (its icon): none carries the secret.
    expect(received.length).toBeGreaterThan(0);
    const everything = JSON.stringify(received);
    expect(everything).not.toContain(app.shell.secret);
    expect(everything).not.toContain(readKeyOf(app.shell.secret));
    for (const headers of received) {
      expect(await replay(headers, 'getStatus')).toBe(401);
      expect(await replay(headers, 'listSessions')).toBe(401);
    }
  });

  it('a wrong secret sent to the printed address replaces nothing', async () => {
    await page.goto(`${app.shell.url}/?launch=not-the-secret`);
    await page.getByTestId('library').waitFor();
    expect(new URL(page.url()).search).toBe('');
  });
});

describe('the web shell sends no one to another site', () => {
  it('an address whose path names another host is answered here, never redirected there', async () => {
    const secret = app.shell.secret;
    const paths = ['//evil.example/?launch=x', `//evil.example/?launch=${secret}`, '/\\evil.example/?launch=x'];
    for (const path of paths) {
      const answer = await rawRequest(app.shell.port, { path, headers: { Host: new URL(app.shell.url).host } });
      // Answered (or refused as a bad request), but never sent on to another site.
      const location = answer.headers.location;
      if (location !== undefined) expect(new URL(location, app.shell.url).origin, path).toBe(app.shell.url);
      expect(answer.status, path).not.toBe(302);
    }
    await page.goto(`${app.shell.url}//evil.example/?launch=${app.shell.secret}`);
    await page.getByTestId('library').waitFor();
    expect(new URL(page.url()).origin).toBe(app.shell.url);
  });
});
