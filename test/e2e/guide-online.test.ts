import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImageVariants } from '../../electron/contract.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { unwrap } from '../helpers/library.ts';
import { appPage, artifact, openDemoApp, type startApp } from './browser.ts';

// Pictures for zoom and guides read from the site, in Chromium through the web shell over real core
// services: the lightbox shows the original from the site while it answers and the best stored variant
// when it does not (large by default, original once the technician chooses it in the sync centre); a
// guide outside the offline scope is read from the site, marked so, and kept on request.
const demo = capturingDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
const VIEWPORT = { width: 1280, height: 800 };
/** The demo guide whose first step picture the lightbox opens. */
const GUIDE = 2;
let picture: ImageVariants;
const widths: Record<'standard' | 'large' | 'original', number> = { standard: 0, large: 0, original: 0 };

/** Width of a PNG, from its IHDR chunk. */
const pngWidth = (bytes: Buffer): number => bytes.readUInt32BE(16);

beforeAll(async () => {
  ({ browser, app, page } = await openDemoApp(demo, VIEWPORT, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/**
 * A page of its own browser context: nothing cached by an earlier
 * page (a picture from the site is cached for the session).
 */
async function freshPage(): Promise<Page> {
  const fresh = await appPage(browser, app.shell, VIEWPORT);
  fresh.on('pageerror', (error) => pageErrors.push(error.message));
  fresh.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  return fresh;
}

async function syncFromSyncCentre(on: Page): Promise<void> {
  await on.getByTestId('nav-sync').click();
  const answered = on.waitForResponse((response) => response.url().endsWith('/rpc/syncNow'), { timeout: 90_000 });
  await on.getByTestId('sync-now').click();
  await answered;
  await on.getByTestId('sync-outcome').waitFor();
  expect((await on.getByTestId('sync-phase').textContent())?.trim()).toBe('Finished');
}

/**
 * Opens the guide's first step picture in the lightbox and answers
 * the picture's natural width (and its address in `lastSrc`).
 */
let lastSrc: string | null = null;
async function lightboxWidth(on: Page): Promise<number> {
  await on.goto(new URL(`/guides/${GUIDE}`, app.shell.url).toString());
  await on.getByTestId('guide').waitFor();
  await on.getByTestId('step-image').first().click();
  await on.getByTestId('lightbox').waitFor();
  const image = on.getByTestId('lightbox-image');
  await on.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('[data-testid="lightbox-image"]');
    return img !== null && img.complete && img.naturalWidth > 0;
  });
  const width = await image.evaluate((img: HTMLImageElement) => img.naturalWidth);
  lastSrc = await image.getAttribute('src');
  await on.keyboard.press('Escape');
  return width;
}

async function siteBack(): Promise<void> {
  await demo.restart();
  app.app.services.setNetworkHint(true);
  await expect.poll(async () => unwrap(await app.app.services.api.getStatus()).network).toBe('online');
}

async function chooseQuality(quality: 'original'): Promise<void> {
  await page.getByTestId('nav-sync').click();
  const chooser = page.getByTestId('picture-quality');
  await chooser.waitFor();
  await page.getByTestId(`quality-${quality}`).check();
  await page.getByTestId('quality-save').click();
  await page.waitForFunction(
    () => document.querySelector<HTMLButtonElement>('[data-testid="quality-save"]')?.disabled === true,
  );
  await syncFromSyncCentre(page);
  await page.getByTestId(`quality-size-${quality}`).filter({ hasText: 'Already here:' }).waitFor();
}

describe('pictures for zoom', () => {
  it('shows the original from the site in the lightbox while the site answers', async () => {
    await page.goto(app.shell.url);
    await page.getByTestId('connect-demo').click();
    await page.getByTestId('library').waitFor();
    await syncFromSyncCentre(page);
    const guide = unwrap(await app.app.services.api.getGuide(GUIDE));
    const step = guide.steps.find((s) => s.media.type === 'image')!;
    picture = (step.media as { images: ImageVariants[] }).images[0]!;
    for (const size of ['standard', 'large', 'original'] as const)
      widths[size] = pngWidth(Buffer.from(await (await fetch(picture[size]!)).arrayBuffer()));
    expect(widths.standard).toBeLessThan(widths.large);
    expect(widths.large).toBeLessThan(widths.original);

    expect(await lightboxWidth(page)).toBe(widths.original);
    expect(lastSrc).toMatch(/[?&]live=1/);
  });

  it('shows the large picture, kept by default, once the site is gone', async () => {
    await demo.site().close();
    const offline = await freshPage();
    expect(await lightboxWidth(offline)).toBe(widths.large);
    await offline.context().close();
  });

  it('offers the qualities with their estimated sizes and the budget, large kept until one is chosen', async () => {
    await siteBack();
    await page.getByTestId('nav-sync').click();
    const original = page.getByTestId('quality-size-original');
    await original.filter({ hasText: /^About [\d.]+ (KB|MB) more for \d+ pictures\.$/ }).waitFor();
    expect(await original.getAttribute('data-basis')).toBe('site');
    expect(await page.getByTestId('quality-size-large').getAttribute('data-basis')).toBe('stored');
    expect(await page.getByTestId('picture-quality').textContent()).toContain('Sizes are estimates');
    expect(await page.getByTestId('quality-large').isChecked()).toBe(true);
    expect(await page.getByTestId('quality-budget').textContent()).toMatch(
      /^Storage budget [\d.]+ (MB|GB), [\d.]+ (KB|MB) used\. Large is kept until you choose/,
    );
    await page.getByTestId('picture-quality').scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact('sync-picture-quality.png') });
  });

  it('keeps the originals once chosen, and shows them with the site gone', async () => {
    // The site answers still (the test before asked it for sizes).
    await chooseQuality('original');
    await demo.site().close();
    const offline = await freshPage();
    expect(await lightboxWidth(offline)).toBe(widths.original);
    await offline.context().close();
  });
});

describe('a guide outside the offline scope', () => {
  let outside: { guideid: number; title: string };

  it('is read from the site while it answers, marked as not kept, with its pictures from the site', async () => {
    await siteBack();
    const api = app.app.services.api;
    unwrap(await api.setOfflineScope({ mode: 'selected', categories: ['Welding'], guideids: [GUIDE] }));
    unwrap(await api.syncNow());
    // Only what the kept guides need stays: the others' pictures are gone from this laptop.
    unwrap(await api.setStorageBudget(1));
    unwrap(await api.setStorageBudget(2 * 1024 ** 3));
    outside = unwrap(await api.listGuides({ limit: 200 })).items.find(
      (g) => g.offline === 'summary' && g.category === 'Air Compressors',
    )!;

    await page.goto(new URL('/', app.shell.url).toString());
    const row = page.getByTestId('guide-row').filter({ hasText: outside.title });
    await row.waitFor();
    expect(await row.getByTestId('guide-thumb-empty').count()).toBe(1);
    await row.click();
    const banner = page.getByTestId('guide-from-site');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Read from the site — not kept on this computer');
    expect(await page.getByTestId('guide-site-chip').textContent()).toBe('From the site');
    expect(await page.getByTestId('guide-work-needs-offline').count()).toBe(1);
    expect(await page.getByTestId('worklog-panel').count()).toBe(0);
    // A picture of the guide's own steps (its prerequisites' come first, and are kept on this laptop).
    const own = `[data-testid="guide-step-section"][data-guideid="${outside.guideid}"] [data-testid="step-image"] img`;
    const first = page.locator(own).first();
    await first.scrollIntoViewIfNeeded();
    await page.waitForFunction((selector) => {
      const img = document.querySelector<HTMLImageElement>(selector);
      return img !== null && img.complete && img.naturalWidth > 0;
    }, own);
    const src = (await first.getAttribute('src'))!;
    expect(src).toMatch(/[?&]live=1/);
    const answer = await page.evaluate(async (url) => {
      const response = await fetch(url);
      return { status: response.status, cache: response.headers.get('cache-control') };
    }, src);
    expect(answer).toEqual({ status: 200, cache: 'private, max-age=3600' });
    await page.evaluate(() => document.querySelector('.app-main')!.scrollTo(0, 0));
    await page.screenshot({ path: artifact('guide-read-from-site.png') });
  });

  it('shows its stored summary with the site gone, then opens whole by itself when the site is back', async () => {
    await demo.site().close();
    const offline = await freshPage();
    await offline.goto(new URL(`/guides/${outside.guideid}`, app.shell.url).toString());
    await offline.getByTestId('guide-summary').waitFor();
    expect(await offline.getByRole('heading', { level: 1 }).textContent()).toBe(outside.title);
    expect(await offline.getByTestId('guide-needs-site').textContent()).toContain('The whole guide needs the site');
    // Its picture was not kept: none is asked for.
    expect(await offline.getByTestId('guide-summary-picture').count()).toBe(0);
    await offline.screenshot({ path: artifact('guide-summary-site-gone.png') });

    await siteBack();
    await offline.getByTestId('guide-from-site').waitFor();
    await offline.context().close();
  });

  it('is kept whole when the technician asks', async () => {
    await page.goto(new URL(`/guides/${outside.guideid}`, app.shell.url).toString());
    await page.getByTestId('guide-from-site').waitFor();
    const answered = page.waitForResponse((response) => response.url().endsWith('/rpc/keepGuideOffline'), {
      timeout: 90_000,
    });
    await page.getByTestId('guide-keep').click();
    await answered;
    await page.getByTestId('guide-from-site').waitFor({ state: 'hidden' });
    expect((await page.getByTestId('guide').getByTestId('offline-badge').textContent())?.trim()).toBe('Kept offline');
    expect(await page.getByTestId('worklog-panel').count()).toBe(1);
    expect(unwrap(await app.app.services.api.getSyncState()).scope.guideids).toContain(outside.guideid);
  });

  it('ran without script errors, CSP violations or failed media requests', () => {
    expect(pageErrors).toEqual([]);
  });
});
