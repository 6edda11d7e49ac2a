import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startSiteProcess } from '../bench/site-process.ts';
import { unwrap } from '../helpers/library.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { appPage, launchChromium, startApp } from './browser.ts';

// Issue 29, acceptance 1: the site hangs (its process stopped, SIGSTOP) or refuses (its port closed), and
// the status chip says so by itself, with nobody doing anything; search shows this laptop's guides while
// the site hangs; when the site answers again the chip says so too. The bounds here are generous (15 s
// against the 5 s target, which `BENCH_ONLY=offline npm run bench` measures): the test checks behaviour.
const SAID_WITHIN_MS = 15_000;

const tmp = makeTempDir('offline-said');
const dbFile = path.join(tmp.dir, 'site.sqlite');
let site: Awaited<ReturnType<typeof startSiteProcess>>;
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  site = await startSiteProcess(['--demo', '--db', dbFile]);
  [browser, app] = await Promise.all([launchChromium(), startApp()]);
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await app.app.services.api.signIn({ siteUrl: site.url, email, password }));
  // Summaries only: every guide is outside the offline scope, read from the site when opened.
  unwrap(await app.app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: [] }));
  expect(unwrap(await app.app.services.api.syncNow()).status).toBe('complete');
  page = await appPage(browser, app.shell, { width: 1280, height: 900 });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(new URL('/search', app.shell.url).toString());
  await networkSaid('online');
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await stopSite();
  tmp.remove();
});

/** Lets a stopped site go on and ends it: never left stopped, whatever the test did. */
async function stopSite(): Promise<void> {
  if (!site) return;
  try {
    process.kill(site.pid, 'SIGCONT');
  } catch {
    return; // already gone
  }
  await site.stop();
}

function networkSaid(state: 'online' | 'offline'): Promise<unknown> {
  return page.waitForFunction(
    (wanted) => document.querySelector('[data-testid="status-chip"]')?.getAttribute('data-network') === wanted,
    state,
    { timeout: SAID_WITHIN_MS, polling: 100 },
  );
}

async function searchShowsLocal(text: string, from: 'local' | 'any' = 'local'): Promise<void> {
  const box = page.getByTestId('search-box');
  await box.fill('');
  await box.pressSequentially(text, { delay: 30 });
  // Well inside the 20 s a request to a hanging site waits: the local results never wait for it.
  await page.waitForFunction(
    ({ query, from }) => {
      const source = document.querySelector(
        from === 'local' ? '[data-testid="search-source"][data-source="local"]' : '[data-testid="search-source"]',
      );
      return source?.textContent?.includes(`“${query}”`) && document.querySelector('[data-testid="search-result"]');
    },
    { query: text, from },
    { timeout: 5_000 },
  );
}

describe('the site stops answering', () => {
  it('refusing: the chip says offline by itself, and online again once the site is back', async () => {
    const port = new URL(site.url).port;
    await site.stop();
    await networkSaid('offline');
    await searchShowsLocal('valve');
    site = await startSiteProcess(['--demo', '--db', dbFile, '--port', port, '--strict-port']);
    await networkSaid('online');
  });

  it('hanging: search shows the guides on this laptop at once, and the chip says offline by itself', async () => {
    process.kill(site.pid, 'SIGSTOP');
    try {
      await searchShowsLocal('hose');
      await networkSaid('offline');
      expect(await page.getByTestId('status-chip').textContent()).toContain('Offline');
      await searchShowsLocal('belt');
    } finally {
      process.kill(site.pid, 'SIGCONT');
    }
    await networkSaid('online');
    expect(pageErrors).toEqual([]);
  });

  it('hanging: a guide outside the scope shows its stored summary at once, whole once the site is back', async () => {
    // The site answers here (it is stopped below): its results may replace the local ones at once.
    await searchShowsLocal('hose', 'any');
    const first = page.getByTestId('search-result').first();
    const href = (await first.getAttribute('href'))!;
    process.kill(site.pid, 'SIGSTOP');
    try {
      await first.click();
      // What this laptop keeps, while the site is asked for the rest: not a page waiting on a hanging site.
      await page.getByTestId('guide-asking-site').waitFor({ timeout: 5_000 });
      expect(href).toContain(String(await page.getByTestId('guide-summary').getAttribute('data-guideid')));
      await networkSaid('offline');
      await page.getByTestId('guide-needs-site').waitFor({ timeout: 5_000 });
    } finally {
      process.kill(site.pid, 'SIGCONT');
    }
    await page.getByTestId('guide-from-site').waitFor({ timeout: SAID_WITHIN_MS });
    expect(pageErrors).toEqual([]);
  });
});
