// What the technician waits for on a slow disk, in a process of its own: the parent preloads the slow-disk
// shim (test/helpers/slow-disk.c), so every flush of a file in the data folder waits the milliseconds it
// says first, as a busy laptop disk does. In Chromium on the web shell at 1366x768, each round: from the
// library the forklift inspection opened, a session started on it, a value typed in step 1's form and Next
// pressed (the save on the disk before step 2 shows). Prints JSON: each wait from the click to the screen,
// the longest the main thread was held at a time, and the flushes of each action, on the main thread or off it.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { launchChromium, startApp } from '../e2e/browser.ts';
import { flushesSince } from '../helpers/slow-disk.ts';
import { startSiteProcess } from './site-process.ts';
import { atStep, backToLibrary, clicked, FORKLIFT, guideShown, libraryReady } from './technician-waits.ts';

const [dataDir, log, roundsArg, siteDb] = process.argv.slice(2);
if (!dataDir || !log || !siteDb) throw new Error('usage: slow-disk-waits.ts <dataDir> <flush log> <rounds> <site db>');
const rounds = Math.max(1, Number(roundsArg ?? 3));
const ACTIONS = ['open a guide', 'start a session', 'next step, a value typed'] as const;
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
  }
  held.disable();
  console.log(JSON.stringify({ waits, flushes, heldMaxMs: held.max / 1e6, rounds }));
} finally {
  await browser.close();
  await app.stop();
  await site.stop();
}
