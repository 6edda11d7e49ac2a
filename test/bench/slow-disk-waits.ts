// What the technician waits for on a slow disk, in a process of its own: the parent preloads the slow-disk
// shim (test/helpers/slow-disk.c), so every flush of a file in the data folder waits the milliseconds it
// says first, as a busy laptop disk does. In Chromium on the web shell at 1366x768, each round: from the
// library the forklift inspection opened, a session started on it, a value typed in step 1's form and Next
// pressed (the save on the disk before step 2 shows); then a photo attached to a step of the compressor's
// drain guide (its thumbnail shown), and a picture quality saved in the Sync centre. Prints JSON: each wait
// from the click (or the file given) to the screen, the longest the main thread was held at a time, and the
// flushes of each action, on the main thread or off it.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import { launchChromium, startApp } from '../e2e/browser.ts';
import { flushesSince } from '../helpers/slow-disk.ts';
import { startSiteProcess } from './site-process.ts';
import { atStep, backToLibrary, clicked, FORKLIFT, guideShown, libraryReady } from './technician-waits.ts';

const [dataDir, log, roundsArg, siteDb] = process.argv.slice(2);
if (!dataDir || !log || !siteDb) throw new Error('usage: slow-disk-waits.ts <dataDir> <flush log> <rounds> <site db>');
const rounds = Math.max(1, Number(roundsArg ?? 3));
const ACTIONS = [
  'open a guide',
  'start a session',
  'next step, a value typed',
  'attach a photo',
  'save a setting',
] as const;
const PHOTO_GUIDE = 'Drain and Inspect the Air Compressor Tank';
const PHOTO_STEP = 4;

/** Gives the step's Image field a photo and answers how long until its thumbnail showed (the file on the disk). */
async function attachPhoto(page: Page, round: number): Promise<number> {
  const field = page.getByTestId('form-field').filter({ hasText: 'Photo of the drain valve' });
  const file = {
    name: `valve-${round}.png`,
    mimeType: 'image/png',
    buffer: encodePng(createCanvas(640, 480, [40, 110, 90])),
  };
  const given = await page.evaluate(() => performance.now());
  await field.locator('input[type="file"]').setInputFiles(file);
  const shown = await page.waitForFunction(
    () => document.querySelector('[data-testid="attachment-thumb"]') !== null && performance.now(),
    null,
    { timeout: 60_000, polling: 'raf' },
  );
  return ((await shown.jsonValue()) as number) - given;
}

/** Saves another picture quality in the Sync centre: how long from the click until it shows as saved. */
async function saveQuality(page: Page): Promise<number> {
  // From the run mode (no top bar there) to the guide's page, then the Sync centre.
  if (await page.getByTestId('session-leave').isVisible()) {
    await page.getByTestId('session-leave').click();
    await page.getByTestId('guide').waitFor({ timeout: 30_000 });
  }
  await page.getByTestId('nav-sync').click();
  const other = page.locator('[data-testid="picture-quality"] input[type="radio"]:not(:checked)').first();
  await other.check();
  const save = page.getByTestId('quality-save');
  await page.evaluate(() => delete (window as { clickedAt?: number }).clickedAt);
  await save.click();
  const saved = await page.waitForFunction(
    () => {
      const at = (window as { clickedAt?: number }).clickedAt;
      const button = document.querySelector<HTMLButtonElement>('[data-testid="quality-save"]');
      return at !== undefined && button?.disabled === true && button.textContent?.trim() === 'Save picture quality'
        ? performance.now() - at
        : null;
    },
    null,
    { timeout: 60_000, polling: 'raf' },
  );
  return (await saved.jsonValue()) as number;
}
type Action = (typeof ACTIONS)[number];

const site = await startSiteProcess(['--demo', '--db', siteDb]);
const [browser, app] = await Promise.all([launchChromium(), startApp({}, dataDir)]);
const waits = Object.fromEntries(ACTIONS.map((action) => [action, [] as number[]])) as Record<Action, number[]>;
const flushes = Object.fromEntries(ACTIONS.map((action) => [action, { main: 0, pool: 0 }])) as Record<
  Action,
  { main: number; pool: number }
>;
const held = monitorEventLoopDelay({ resolution: 1 });
try {
  const page = await libraryReady(browser, app, site.url);
  let from = flushesSince(log, dataDir, 0).end;
  /** The flushes since the last action began, counted for `action` (what it left to do after its screen too). */
  const counted = (action: Action) => {
    const since = flushesSince(log, dataDir, from);
    from = since.end;
    for (const flush of since.flushes) flushes[action][flush.startsWith('main ') ? 'main' : 'pool']++;
  };
  held.enable();
  for (let round = 0; round < rounds; round++) {
    const row = await backToLibrary(page);
    from = flushesSince(log, dataDir, from).end;
    waits['open a guide'].push(await clicked(page, row, guideShown, FORKLIFT));
    await page.getByTestId('workorder-input').fill(`WO-DISK-${round}`);
    counted('open a guide');
    waits['start a session'].push(await clicked(page, page.getByTestId('start-session-button'), atStep, 1));
    await page.getByTestId('step-form').locator('input').first().fill(`FL-${round}`);
    counted('start a session');
    waits['next step, a value typed'].push(await clicked(page, page.getByTestId('step-next'), atStep, 2));
    // What the step's save left to the disk after the screen answered, before the next round's first click.
    await page.waitForTimeout(500);
    counted('next step, a value typed');
    // A session on the compressor's drain guide (not timed), then a photo for its step 4's Image field.
    await (await backToLibrary(page)).waitFor();
    await page.getByTestId('guide-row').filter({ hasText: PHOTO_GUIDE }).first().click();
    await page.getByTestId('workorder-input').fill(`WO-PHOTO-${round}`);
    await page.getByTestId('start-session-button').click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}/);
    await page.goto(`${page.url().replace(/\?.*$/, '')}?step=${PHOTO_STEP}`);
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor({ timeout: 30_000 });
    await page.evaluate(() => {
      document.addEventListener(
        'click',
        () => ((window as { clickedAt?: number }).clickedAt = performance.now()),
        true,
      );
    });
    from = flushesSince(log, dataDir, from).end;
    waits['attach a photo'].push(await attachPhoto(page, round));
    await page.waitForTimeout(500);
    counted('attach a photo');
    waits['save a setting'].push(await saveQuality(page));
    // The sync the save starts (the pictures of that quality), ended before the next round's clicks.
    for (let wait = 0; wait < 600; wait++) {
      const state = await app.app.services.api.getSyncState();
      if (state.ok && !state.value.running) break;
      await page.waitForTimeout(100);
    }
    counted('save a setting');
  }
  held.disable();
  console.log(JSON.stringify({ waits, flushes, heldMaxMs: held.max / 1e6, rounds }));
} finally {
  await browser.close();
  await app.stop();
  await site.stop();
}
