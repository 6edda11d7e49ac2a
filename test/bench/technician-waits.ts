import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { appPage, launchChromium, rendererDir, startApp } from '../e2e/browser.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { startSiteProcess } from './site-process.ts';

export const FORKLIFT = 'Forklift Daily Pre-Shift Inspection';
const ACTIONS = [
  'open a guide',
  'start a session',
  'next step',
  'the Finish review',
  'finish the job',
  'the Sync centre',
  'my sessions',
] as const;
type Action = (typeof ACTIONS)[number];

/**
 * DESIGN.md §10: opening a guide, moving a step and starting a session under 300 ms, as the technician
 * waits for them: in Chromium on the web shell at 1366×768, from the click to the screen that answers it
 * (the guide's title and its first step with its picture loaded; the run mode at step 1, its form ready;
 * step 2, its form ready, after Next saved step 1). Then the end of the job, under the same target: Finish…
 * to its review, drafts read and listed; the review's Finish (signed off) to the session's summary; the Sync
 * centre and My sessions from the top bar, their lists drawn. Each round: from the library, the forklift
 * inspection opened, a session started on it, one step moved, the session finished, the two lists opened.
 * First with the demo site (a process of its own) answering, then with it hanging (SIGSTOP just before the
 * first of those rounds: the app does not know yet), as a workshop's Wi-Fi that stops answering does.
 */
export async function benchTechnicianWaits(rounds: number): Promise<void> {
  if (!fs.existsSync(path.join(rendererDir, 'index.html'))) {
    console.log('\nWhat the technician waits for: skipped, the renderer is not built (npm run build first)');
    return;
  }
  const tmp = makeTempDir('bench-waits');
  const site = await startSiteProcess(['--demo', '--db', path.join(tmp.dir, 'site.sqlite')]);
  const [browser, app] = await Promise.all([launchChromium(), startApp()]);
  const figures = { answering: times(), hanging: times() };
  try {
    const page = await libraryReady(browser, app, site.url);
    for (const condition of ['answering', 'hanging'] as const) {
      if (condition === 'hanging') process.kill(site.pid, 'SIGSTOP');
      try {
        for (let round = 0; round < rounds; round++) {
          const took = figures[condition];
          const row = await backToLibrary(page);
          took['open a guide'].push(await clicked(page, row, guideShown, FORKLIFT));
          await page.getByTestId('workorder-input').fill(`WO-WAIT-${condition}-${round}`);
          took['start a session'].push(await clicked(page, page.getByTestId('start-session-button'), atStep, 1));
          took['next step'].push(await clicked(page, page.getByTestId('step-next'), atStep, 2));
          took['the Finish review'].push(await clicked(page, page.getByTestId('session-finish'), shownBy, REVIEW));
          await page.getByTestId('sign-off-name').fill(DEMO_ACCOUNTS.tech1.username);
          took['finish the job'].push(await clicked(page, page.getByTestId('review-confirm'), shownBy, SUMMARY));
          took['the Sync centre'].push(await clicked(page, page.getByTestId('nav-sync'), shownBy, SYNC_CENTRE));
          took['my sessions'].push(await clicked(page, page.getByTestId('nav-sessions'), shownBy, SESSIONS));
        }
      } finally {
        if (condition === 'hanging') process.kill(site.pid, 'SIGCONT');
      }
    }
    console.log(
      `\nWhat the technician waits for, from the click to the screen (Chromium, 1366x768, ${rounds} rounds):`,
    );
    for (const condition of ['answering', 'hanging'] as const) {
      const line = ACTIONS.map((action) => `${action} ${summary(figures[condition][action])}`).join('; ');
      const said = condition === 'answering' ? 'site answering' : 'site hanging (from the first click on)';
      console.log(`${said}: ${line} (target 300 ms each)`);
    }
  } finally {
    await browser.close();
    await app.stop();
    await site.stop();
    tmp.remove();
  }
}

/**
 * Signed in to the site as tech1 and synced, the library shown at 1366x768 with each click's time kept for
 * `clicked`, after a moment: the app has started, as on a computer opened at the start of a job (the first
 * round still includes the first drawing of each screen).
 */
export async function libraryReady(
  browser: Browser,
  app: Awaited<ReturnType<typeof startApp>>,
  siteUrl: string,
): Promise<Page> {
  const { email, password } = DEMO_ACCOUNTS.tech1;
  const signedIn = await app.app.services.api.signIn({ siteUrl, email, password });
  if (!signedIn.ok) throw new Error(signedIn.error.message);
  const synced = await app.app.services.api.syncNow();
  if (!synced.ok || synced.value.status !== 'complete') throw new Error('the first sync did not complete');
  const page = await appPage(browser, app.shell, { width: 1366, height: 768 });
  await page.goto(new URL('/library', app.shell.url).toString());
  await page.evaluate(() => {
    document.addEventListener('click', () => ((window as { clickedAt?: number }).clickedAt = performance.now()), true);
  });
  await page.getByTestId('guide-row').first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1_000);
  return page;
}

/** From the run mode back to the guide, then to the library, as a technician goes: the forklift inspection's row. */
export async function backToLibrary(page: Page): Promise<Locator> {
  if (await page.getByTestId('session-leave').isVisible()) {
    await page.getByTestId('session-leave').click();
    await page.getByTestId('guide').waitFor({ timeout: 30_000 });
  }
  await page.getByTestId('nav-library').click();
  const row = page.getByTestId('guide-row').filter({ hasText: FORKLIFT }).first();
  await row.waitFor({ timeout: 30_000 });
  return row;
}

function times(): Record<Action, number[]> {
  return Object.fromEntries(ACTIONS.map((action) => [action, []])) as unknown as Record<Action, number[]>;
}

// What each screen shows once it answers the click: its parts drawn, with what they list.
/** The Finish review, its button to finish there (its drafts read). */
const REVIEW = '[data-testid="finish-review"] [data-testid="review-confirm"]';
/** The session complete, its summary shown. */
const SUMMARY = '[data-testid="session"][data-status="complete"] [data-testid="session-summary"]';
/** The Sync centre with its outbox's summary (what waits) read. */
const SYNC_CENTRE = '[data-testid="outbox-panel"] [data-testid="outbox-summary"]';
/** My sessions, with the rows of the sessions finished. */
const SESSIONS = '[data-testid="sessions"] .card .rows > *';

export function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const each = values.map((value) => value.toFixed(0)).join(', ');
  return `median ${median.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms (${each})`;
}

/**
 * Clicks `target` and answers how long after the click (as the page saw it) the screen answered it:
 * `shown(arg)` checks at every frame the page draws, and answers that time once the screen is there.
 */
export async function clicked<A>(
  page: Page,
  target: Locator,
  shown: (arg: A) => number | null,
  arg: A,
): Promise<number> {
  await target.waitFor({ timeout: 30_000 });
  await page.evaluate(() => delete (window as { clickedAt?: number }).clickedAt);
  await target.click();
  const check = shown as (value: unknown) => number | null;
  const handle = await page.waitForFunction(check, arg as unknown, { timeout: 60_000, polling: 'raf' });
  return (await handle.jsonValue()) as number;
}

/** In the page: the guide's page with its title, its first step and that step's picture drawn. */
export function guideShown(title: string): number | null {
  const at = (window as { clickedAt?: number }).clickedAt;
  const guide = document.querySelector('[data-testid="guide"]');
  if (at === undefined || !guide?.querySelector('.guide-title')?.textContent?.includes(title)) return null;
  const step = guide.querySelector('[data-testid="guide-step"]');
  const picture = step?.querySelector('img');
  if (!step || (picture && !(picture.complete && picture.naturalWidth > 0))) return null;
  return performance.now() - at;
}

/** In the page: the time since the click once `selector` is there with words in it, else null. */
export function shownBy(selector: string): number | null {
  const at = (window as { clickedAt?: number }).clickedAt;
  if (at === undefined || !document.querySelector(selector)?.textContent?.trim()) return null;
  return performance.now() - at;
}

/** In the page: the run mode at step `n`, its form (when it has one) ready for input. */
export function atStep(n: number): number | null {
  const at = (window as { clickedAt?: number }).clickedAt;
  const count = document.querySelector('[data-testid="step-count"]')?.textContent ?? '';
  if (at === undefined || !count.startsWith(`Step ${n} of`)) return null;
  const form = document.querySelector('[data-testid="step-form"]');
  if (form && form.getAttribute('data-ready') !== 'true') return null;
  return performance.now() - at;
}
