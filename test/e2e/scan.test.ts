import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { appPage, artifact, launchChromium, startApp } from './browser.ts';
import { writeCode39Y4m, writeQrY4m } from './fake-camera.ts';
import { scanKeys } from './scanner-burst.ts';
import { checkScreen, formatProblems, VIEWPORTS, type ScreenProblem } from './screen-checks.ts';

// Issue 30, acceptance 4: a QR code of a demo guide's page, as the demo's page of printed codes shows it,
// held up to the webcam (Chromium's fake camera playing a video of it) opens that guide with the site
// gone; a USB scanner typing the same code into the search box and pressing Enter does the same.
const tmp = makeTempDir('scan');
let site: RunningSite;
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
const pageErrors: string[] = [];
let guide: { guideid: number; title: string; url: string };

beforeAll(async () => {
  [browser, app, site] = await Promise.all([launchChromium(), startApp(), startDemoSite()]);
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await app.app.services.api.signIn({ siteUrl: site.url, email, password }));
  expect(unwrap(await app.app.services.api.syncNow()).status).toBe('complete');
  // The printed code of the compressor's drive belt guide, as the demo's page of codes has it.
  const codes = await (await fetch(`${site.url}/demo/codes`)).text();
  const stored = unwrap(await app.app.services.api.listGuides({ limit: 50 })).items;
  const belt = stored.find((item) => item.title.startsWith('Replace the Drive Belt'))!;
  const url = new RegExp(`<code>(${site.url}/Guide/[^<]+/${belt.guideid})</code>`).exec(codes)![1]!;
  guide = { guideid: belt.guideid, title: belt.title, url };
  // Offline from here on: the site is gone.
  await site.close();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  tmp.remove();
});

async function openedOffline(page: Page): Promise<void> {
  // A problem the scanner says fails the test at once, in its words.
  const problem = page.getByTestId('scan-problem');
  const said = problem.waitFor({ timeout: 20_000 }).then(
    async () => `the scanner said: ${await problem.textContent()}`,
    () => null,
  );
  const opened = page.waitForURL(`**/guides/${guide.guideid}`, { timeout: 20_000 }).then(() => null);
  const failure = await Promise.race([opened, said.then((words) => words ?? opened)]);
  expect(failure).toBeNull();
  await page.locator('h1.guide-title', { hasText: guide.title }).waitFor({ timeout: 20_000 });
}

/** A page of a Chromium whose camera plays `video` (a y4m file), closed after `use`, whatever happens. */
async function withCamera(video: string, use: (page: Page) => Promise<void>): Promise<void> {
  const cameraBrowser = await launchChromium([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-video-capture=${video}`,
  ]);
  try {
    const page = await appPage(cameraBrowser, app.shell, { width: 1280, height: 900 });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await use(page);
  } finally {
    await cameraBrowser.close();
  }
}

describe('scan to open (acceptance 4)', () => {
  it("opens the guide whose printed QR code the webcam sees, offline, with the app's own reader", async () => {
    const video = path.join(tmp.dir, 'qr.y4m');
    writeQrY4m(video, guide.url);
    await withCamera(video, async (page) => {
      // Nothing may leave this computer but to the app itself: the reader's .wasm is the app's own.
      const elsewhere: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(app.shell.url) && !request.url().startsWith('data:')) {
          elsewhere.push(request.url());
        }
      });
      await page.goto(app.shell.url);
      await page.getByTestId('nav-library').waitFor();
      await page.getByTestId('scan-open').click();
      await page.getByTestId('scan-dialog').waitFor();
      await openedOffline(page);
      await page.screenshot({ path: artifact('scan-opened.png') });
      expect(elsewhere).toEqual([]);
      expect(await page.getByTestId('scan-dialog').isVisible()).toBe(false);
    });
  });

  it("opens the guide whose id a 1-D barcode (Code 39) carries, as on a machine's label", async () => {
    const video = path.join(tmp.dir, 'code39.y4m');
    writeCode39Y4m(video, String(guide.guideid));
    await withCamera(video, async (page) => {
      await page.goto(new URL('/search', app.shell.url).toString());
      await page.getByTestId('scan-open').click();
      await openedOffline(page);
    });
  });

  it('says in words where no camera exists, and how to open a code without one', async () => {
    const page = await appPage(browser, app.shell, { width: 1280, height: 900 });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(app.shell.url);
    const problems: ScreenProblem[] = [];
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.getByTestId('scan-open').click();
      const problem = page.getByTestId('scan-problem');
      await problem.waitFor();
      expect(await problem.textContent()).toMatch(/camera.*type the code into the search box/);
      problems.push(...(await checkScreen(page, 'scan-no-camera', viewport)));
      await page.getByTestId('scan-close').click();
      await page.getByTestId('scan-dialog').waitFor({ state: 'hidden' });
    }
    expect(formatProblems(problems)).toBe('');
    await page.context().close();
  });

  it('opens the same guide when a USB scanner types its code into the search box and presses Enter', async () => {
    const page = await appPage(browser, app.shell, { width: 1280, height: 900 });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(new URL('/search', app.shell.url).toString());
    const box = page.getByTestId('search-box');
    await box.focus();
    await page.keyboard.type(guide.url);
    await page.keyboard.press('Enter');
    await openedOffline(page);

    // A bare guide id from a label does the same.
    await page.goto(new URL('/search', app.shell.url).toString());
    await page.getByTestId('search-box').focus();
    await page.keyboard.type(String(guide.guideid));
    await page.keyboard.press('Enter');
    await openedOffline(page);
    await page.context().close();
  });

  it('says an unknown code in plain words and keeps it in the search box', async () => {
    const page = await appPage(browser, app.shell, { width: 1280, height: 900 });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(new URL('/search', app.shell.url).toString());
    await page.getByTestId('search-box').focus();
    await scanKeys(page, '4006381333931');
    const said = page.getByTestId('scan-unknown');
    await said.waitFor();
    expect(await said.textContent()).toContain('“4006381333931”');
    expect(await page.getByTestId('search-box').inputValue()).toBe('4006381333931');
    await page.getByTestId('search-source').waitFor();
    expect(page.url()).toContain('/search?q=4006381333931');

    // A code longer than a search takes: said, and its beginning searched for, never a refusal.
    const long = `https://other.example/${'a'.repeat(600)}`;
    await page.getByTestId('search-box').fill(long);
    await page.keyboard.press('Enter');
    await page
      .getByTestId('scan-unknown')
      .filter({ hasText: `${long.length} characters long` })
      .waitFor();
    expect(await page.getByTestId('search-box').inputValue()).toBe(long.slice(0, 500));
    await page.getByTestId('search-source').filter({ hasText: 'https://other.example/' }).waitFor();
    expect(await page.locator('.alert[role="alert"]').count()).toBe(0);
    // Its words wrap in the window: the code ran off its right edge in the notice and the results' lines.
    const sideways = await page.evaluate(() => {
      const main = document.querySelector('.app-main')!;
      return main.scrollWidth - main.clientWidth;
    });
    expect(sideways).toBeLessThanOrEqual(1);
    await page.context().close();
  });

  it('opens the category a scanned name means, typed by the scanner in a burst', async () => {
    const page = await appPage(browser, app.shell, { width: 1280, height: 900 });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const [category] = unwrap(await app.app.services.api.getCategories());
    await page.goto(new URL('/search', app.shell.url).toString());
    await page.getByTestId('search-box').focus();
    await scanKeys(page, category!.title.toUpperCase());
    await page.locator('h1.library-title', { hasText: category!.title }).waitFor({ timeout: 20_000 });

    // The same name typed by a person, key by key, is searched: words are a search unless a scanner typed them.
    await page.goto(new URL('/search', app.shell.url).toString());
    await page.getByTestId('search-box').pressSequentially(category!.title, { delay: 150 });
    await page.keyboard.press('Enter');
    await page.getByTestId('search-source').waitFor();
    expect(new URL(page.url()).pathname).toBe('/search');
    expect(await page.getByTestId('scan-unknown').count()).toBe(0);
    await page.context().close();
  });

  it('left no error on any page', () => {
    expect(pageErrors).toEqual([]);
  });
});
