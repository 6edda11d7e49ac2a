import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSite } from '../../server/generator/generator.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startSite, type RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { appPage, artifact, launchChromium, startApp } from './browser.ts';

// The library view with thousands of guides: a generated site, synced as summaries (one guide whole),
// must list, scroll and filter while only the rows on screen exist and only the pages shown are fetched.
const GUIDES = 3000;
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let site: RunningSite;
let page: Page;
const pageErrors: string[] = [];
const listCalls: string[] = [];
/** Guides tech1 may see (the generator makes some private). */
let visible = 0;

beforeAll(async () => {
  [browser, app, site] = await Promise.all([
    launchChromium(),
    startApp(),
    startSite({ seed: (db) => void generateSite(db, { guides: GUIDES, steps: 2, images: 1, seed: 7 }) }),
  ]);
  const { api } = app.app.services;
  unwrap(
    await api.signIn({ siteUrl: site.url, email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password }),
  );
  unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [1] }));
  expect(unwrap(await api.syncNow())).toMatchObject({ status: 'complete' });
  visible = unwrap(await api.listGuides({ limit: 1 })).total;
  expect(visible).toBeGreaterThan(2000);
  expect(unwrap(await api.listGuides({ offlineOnly: true, limit: 1 })).total).toBe(1);

  page = await appPage(browser, app.shell, { width: 1280, height: 800 });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  page.on('request', (request) => {
    if (request.url().endsWith('/rpc/listGuides')) listCalls.push(request.postData() ?? '');
  });
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await site?.close();
});

const rowCount = () => page.getByTestId('guide-row').count();

describe('a library of thousands of guides', () => {
  it('lists them with only the visible rows in the page', async () => {
    await page.goto(app.shell.url);
    await page.getByTestId('guide-row').first().waitFor();
    expect(await page.getByTestId('library-count').textContent()).toContain(
      `${visible.toLocaleString('en-US')} guides`,
    );
    expect(await rowCount()).toBeLessThan(40);
    expect(listCalls.length).toBe(1);
    await page.screenshot({ path: artifact('library-large.png') });
  });

  it('fills the rows of the far end of the list when scrolled there, fetching only that page', async () => {
    listCalls.length = 0;
    await page.getByTestId('guide-list').evaluate((list) => list.scrollTo(0, list.scrollHeight));
    await page.waitForFunction(() => {
      const list = document.querySelector('[data-testid="guide-list"]')!;
      const rows = [...list.querySelectorAll('[data-testid="guide-row"]')];
      const box = list.getBoundingClientRect();
      const visible = rows.filter((row) => {
        const r = row.getBoundingClientRect();
        return r.bottom > box.top && r.top < box.bottom;
      });
      return visible.length > 3 && list.querySelectorAll('.guide-row-placeholder').length === 0;
    });
    expect(await rowCount()).toBeLessThan(40);
    expect(listCalls.map((body) => JSON.parse(body).args[0].offset)).toEqual([Math.floor((visible - 1) / 200) * 200]);
  });

  it('narrows to the guides kept whole with the offline filter', async () => {
    await page.getByTestId('filter-offline').check();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="library-count"]')?.textContent?.trim().startsWith('1 guide '),
    );
    expect(await rowCount()).toBe(1);
    expect((await page.getByTestId('offline-badge').textContent())?.trim()).toBe('Kept offline');
    await page.getByTestId('filter-offline').uncheck();
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="library-count"]')?.textContent?.trim().startsWith(`${n} guides`),
      visible.toLocaleString('en-US'),
    );
  });

  it('ran without script errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
