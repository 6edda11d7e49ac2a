import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { systemClock } from '../../server/context.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { artifact, connectAndSyncDemo, openDemoApp, type startApp } from './browser.ts';

// A session's times are on the site's clock (electron/shared/work-clock.ts); the page runs on this
// computer's. With a site whose clock is an hour behind (what `npm run server -- --clock-offset -3600`
// plays), a session just started reads seconds, not an hour, on every timer the page shows.
const OFFSET = -3600;
let site: RunningSite | null = null;
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];

const FORKLIFT = { id: 10, title: 'Forklift Daily Pre-Shift Inspection', workorder: 'WO-CLOCK-1' };
/** A duration the page shows, under a minute: h:mm:ss with no hours and no minutes. */
const SECONDS_ONLY = /^0:00:\d\d$/;

beforeAll(async () => {
  const demo = {
    startDemoWorkshop: async (dataDir: string) => {
      site = await startDemoSite({ dbFile: `${dataDir}/demo-site.sqlite`, clock: systemClock(OFFSET) });
      const { email, password } = DEMO_ACCOUNTS.tech1;
      return { url: site.url, account: { email, password }, close: () => site!.close() };
    },
  };
  ({ browser, app, page } = await openDemoApp(demo, { width: 1280, height: 900 }, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const text = async (testid: string): Promise<string> => (await page.getByTestId(testid).first().textContent())!;

describe("a site whose clock is an hour behind this computer's", () => {
  it('syncs the demo workshop, whose answers tell the site clock', async () => {
    await connectAndSyncDemo(page, app.shell.url);
    expect(await page.getByTestId('sync-last-error').count()).toBe(0);
  });

  it('shows a session just started at seconds, running, and its pause at seconds', async () => {
    await page.getByTestId('nav-library').click();
    await page.getByTestId('guide-row').filter({ hasText: FORKLIFT.title }).first().click();
    await page.locator(`[data-testid="guide"][data-guideid="${FORKLIFT.id}"]`).waitFor();
    await page.getByTestId('workorder-input').fill(FORKLIFT.workorder);
    await page.getByTestId('start-session-button').click();
    await page.locator('[data-testid="session"][data-status="started"]').waitFor();

    // The session's start is the site's time: an hour before this computer's clock.
    const id = (await page.getByTestId('session').getAttribute('data-session-id'))!;
    const session = await app.app.services.api.getSession(id);
    if (!session.ok) throw new Error(session.error.message);
    expect(session.value.startedAt).toBeLessThan(Date.now() / 1000 + OFFSET + 60);

    expect(await text('timer-active')).toMatch(SECONDS_ONLY);
    expect(await text('run-timer')).toContain('0:00:');
    // It runs: the page's clock moves the timer on (read when it has, not after a set wait).
    await page.waitForFunction(() => {
      const shown = document.querySelector('[data-testid="timer-active"]')?.textContent ?? '';
      return /^0:00:\d\d$/.test(shown) && shown !== '0:00:00';
    });

    await page.getByTestId('session-pause').click();
    await page.locator('[data-testid="session"][data-status="paused"]').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="timer-paused"]')?.textContent !== '0:00:00');
    expect(await text('timer-paused')).toMatch(SECONDS_ONLY);
    expect(await text('timer-active')).toMatch(SECONDS_ONLY);
    await page.screenshot({ path: artifact('site-clock-session.png') });
  });

  it('lists the open session with its active time at seconds', async () => {
    // The run mode hides the app's bars: the session is left by its own way out first.
    await page.getByTestId('session-leave').click();
    await page.getByTestId('nav-sessions').click();
    const row = page.getByTestId('session-row').filter({ hasText: FORKLIFT.workorder });
    await row.waitFor();
    const active = /\s·\s(\d+:\d\d:\d\d) active/.exec((await row.textContent())!)?.[1];
    expect(active).toMatch(SECONDS_ONLY);
    expect(pageErrors).toEqual([]);
  });
});
