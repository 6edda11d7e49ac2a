import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { connectAndSyncDemo, fullViewShot, openDemoApp, sendNowUnlessGone, type startApp } from './browser.ts';
import { MIN_TARGET_PX } from './screen-checks.ts';

// Issue 30 in Chromium: with the demo site stopped, tech1 stars a guide in the library; it is in My guides
// at once and its page says the star waits to be sent; with the site back the site has it, as tech1's.
const demo = capturingDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
const LATHE = 'Mount a Three-Jaw Chuck on a D1-4 Spindle';

const tech1Favorites = (): string[] =>
  (
    demo
      .site()
      .db.prepare(
        `SELECT r.title FROM favorites f JOIN users u USING (userid) JOIN guides g USING (guideid)
         JOIN guide_revisions r ON r.revisionid = g.revisionid WHERE u.email = ? ORDER BY r.title`,
      )
      .all(DEMO_ACCOUNTS.tech1.email) as { title: string }[]
  ).map((row) => row.title);

beforeAll(async () => {
  ({ browser, app, page } = await openDemoApp(demo, { width: 1280, height: 900 }, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('a favourite starred offline', () => {
  it('syncs the demo workshop, then loses the site', async () => {
    await connectAndSyncDemo(page, app.shell.url);
    expect(await page.getByTestId('sync-last-error').count()).toBe(0);
    expect(tech1Favorites()).not.toContain(LATHE);
    await demo.site().close();
  });

  it('is starred from the library and shown in My guides, waiting to be sent', async () => {
    await page.getByTestId('nav-library').click();
    const line = page.locator('.guide-row-line', { has: page.getByTestId('guide-row').filter({ hasText: LATHE }) });
    const star = line.getByTestId('favorite-star');
    expect(await star.getAttribute('aria-pressed')).toBe('false');
    await star.click();
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('true');

    await page.getByTestId('nav-my-guides').click();
    const favorites = page.getByTestId('my-guides-favorites');
    await favorites.getByTestId('my-guide').filter({ hasText: LATHE }).waitFor();
    await fullViewShot(page, 'my-guides-offline.png');
    await favorites.getByRole('link', { name: LATHE }).click();
    await expect
      .poll(() => page.getByTestId('guide-favorite-state').textContent())
      .toBe('In your favourites · waiting to be sent');
  });

  it('reaches the site as tech1’s once the site is back', async () => {
    await demo.restart();
    await page.getByTestId('nav-sync').click();
    await sendNowUnlessGone(page);
    await expect.poll(() => tech1Favorites(), { timeout: 30_000 }).toContain(LATHE);
    await page.getByTestId('nav-my-guides').click();
    await page.getByTestId('my-guides-favorites').getByRole('link', { name: LATHE }).click();
    await expect.poll(() => page.getByTestId('guide-favorite-state').textContent()).toBe('In your favourites');
    expect(pageErrors).toEqual([]);
  });

  it('shows the star its words say on a guide page opened first, before the library', async () => {
    // The star read the list of favourites that only the library loads: a guide page opened first (a
    // reload, a link) said "In your favourites" beside an empty star.
    await page.reload();
    await expect.poll(() => page.getByTestId('guide-favorite-state').textContent()).toBe('In your favourites');
    const star = page.getByTestId('guide-marks').getByTestId('favorite-star');
    expect(await star.getAttribute('aria-pressed')).toBe('true');
    expect(pageErrors).toEqual([]);
  });

  it('says a star is sent once the site has it, on the page where it was pressed', async () => {
    // A walk with the site answering: "Not in your favourites · waiting to be sent" stood until the next sync
    // ended, 20 s after the site had it; the page was read again only then, or when opened again.
    const star = page.getByTestId('guide-marks').getByTestId('favorite-star');
    const said = () => page.getByTestId('guide-favorite-state').textContent();
    await star.click();
    await expect.poll(() => tech1Favorites(), { timeout: 15_000 }).not.toContain(LATHE);
    await expect.poll(said, { timeout: 10_000 }).toBe('Not in your favourites');
    await star.click();
    await expect.poll(() => tech1Favorites(), { timeout: 15_000 }).toContain(LATHE);
    await expect.poll(said, { timeout: 10_000 }).toBe('In your favourites');
    expect(pageErrors).toEqual([]);
  });

  it("lists My guides as the library's rows: a glove-sized target, the flags, the star, and when", async () => {
    // The lists were bare links in the browser's blue, a line of text high, without the guide's picture,
    // its flags or its star; and opened first, before the library, their stars could not say which are favourites.
    await page.goto(new URL('/mine', app.shell.url).toString());
    const row = page.getByTestId('my-guides-favorites').getByTestId('my-guide').filter({ hasText: LATHE });
    await row.getByTestId('guide-row').waitFor();
    const box = await row.getByTestId('guide-row').boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(MIN_TARGET_PX);
    expect(await row.getByTestId('guide-row-note').textContent()).toMatch(/^Starred \S/);
    await expect.poll(() => row.getByTestId('favorite-star').getAttribute('aria-pressed')).toBe('true');
    // Unstarred here, it leaves the list (and the site is told in tech1's name).
    await row.getByTestId('favorite-star').click();
    await expect.poll(() => row.count()).toBe(0);
    await expect.poll(() => tech1Favorites(), { timeout: 30_000 }).not.toContain(LATHE);
    expect(pageErrors).toEqual([]);
  });
});
