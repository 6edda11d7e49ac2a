import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServicesDeps } from '../../electron/core/services.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { api as siteApi, signIn } from '../server/helpers.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { appPage, artifact, gloveDoubleTap, launchChromium, startApp } from './browser.ts';
import { expectFitsBothTextSizes } from './screen-checks.ts';

// A second day's walk: the forklift check left running when Fieldguide closed for the night counted 14 hours
// of work, here and on the site, and the morning said nothing. Reopened, the session asks first whether that
// time was work; "No" (a glove's double tap: one answer) makes it a pause on the site. The laptop's and the
// site's clocks are moved together, a night in a moment.
const HOUR = 3_600_000;
const FORKLIFT = 10;
let now = Math.floor(Date.now() / 1000) * 1000;
const siteClock = { now: () => Math.floor(now / 1000), set: () => {} };
const tmp = makeTempDir('e2e-ran-unwatched');
let site: RunningSite | null = null;
const demo: Pick<ServicesDeps, 'startDemoWorkshop'> = {
  startDemoWorkshop: async (dataDir) => {
    const running = await startDemoSite({ dbFile: path.join(dataDir, 'demo-site.sqlite'), clock: siteClock });
    site = running;
    const { email, password } = DEMO_ACCOUNTS.tech1;
    return { url: running.url, account: { email, password }, close: () => running.close() };
  },
};
const overrides = { ...demo, clock: () => now, monotonic: () => now, uptime: () => now / 1000 };
let app: Awaited<ReturnType<typeof startApp>>;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
let sessionId = '';
/** Handed over here, then taken back and worked on another computer: running here as the site has it. */
let elsewhereId = '';
let closedAt = 0;
let openedAt = 0;

beforeAll(async () => {
  browser = await launchChromium();
  // The first day: the check started, then Fieldguide closed with it running.
  app = await startApp(overrides, tmp.dir);
  const api = app.app.services.api;
  await app.app.services.start();
  unwrap(await api.connectDemo());
  unwrap(await api.syncNow());
  sessionId = unwrap(await api.startSession({ guideid: FORKLIFT, workorderid: 'WO-NIGHT-1' })).id;
  elsewhereId = unwrap(await api.startSession({ guideid: FORKLIFT, workorderid: 'WO-ELSEWHERE' })).id;
  unwrap(await api.transitionSession({ sessionId: elsewhereId, transition: 'suspend' }));
  now += 25 * 60_000;
  expect(unwrap(await api.flushOutbox())).toMatchObject({ pending: 0, failed: 0 });
  // Taken back on another computer, where the technician goes on with it; this computer's sync follows it.
  const tech1 = await signIn(site!, 'tech1');
  const { entryid } = unwrap(await api.getSession(elsewhereId));
  const { revisionid } = (await siteApi(site!, 'GET', `/work_log/${entryid}`, { token: tech1.token })).body as {
    revisionid: number;
  };
  const assume = `/work_log/${entryid}/assume?revisionid=${revisionid}`;
  expect((await siteApi(site!, 'POST', assume, { token: tech1.token, json: {} })).status).toBe(200);
  unwrap(await api.syncNow());
  expect(unwrap(await api.getSession(elsewhereId))).toMatchObject({ status: 'started', pendingActions: 0 });
  closedAt = Math.floor(now / 1000);
  await app.stop();
  // The morning after.
  now += 14 * HOUR;
  openedAt = Math.floor(now / 1000);
  // Its notes that it runs come every 300 ms here (a minute in the app): the sleep below is seen at once.
  app = await startApp({ ...overrides, aliveEveryMs: 300 }, tmp.dir);
  await app.app.services.start();
  page = await appPage(browser, app.shell, { width: 1024, height: 600 });
  page.on('pageerror', (error) => pageErrors.push(error.message));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  tmp.remove();
});

describe('a session left running overnight', () => {
  it('the library and the Sessions list say a question waits, and the session asks it before the step', async () => {
    // The app opens on the library: its banner of the open work names the session that asks.
    await page.goto(app.shell.url);
    await expect
      .poll(() => page.getByTestId('open-session-ran').textContent(), { timeout: 15_000 })
      .toContain('Its timer ran 14 h while Fieldguide was closed: say whether that was work.');
    await page.getByTestId('open-session-banner').screenshot({ path: artifact('ran-unwatched-banner.png') });
    await page.goto(new URL('/sessions', app.shell.url).toString());
    await expect
      .poll(() => page.getByTestId('session-row-ran').textContent(), { timeout: 15_000 })
      .toContain('Asks about 14 h while Fieldguide was');
    await page.goto(new URL(`/sessions/${sessionId}`, app.shell.url).toString());
    const asked = page.getByTestId('ran-unwatched');
    await asked.waitFor();
    expect(await page.getByTestId('ran-unwatched-span').textContent()).toBe('14 h');
    // The question first: the step and its buttons wait for the answer, the keyboard on the question.
    expect(await page.getByTestId('session-step').count()).toBe(0);
    expect(await page.getByTestId('session-pause').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('ran-unwatched-title');
    await page.screenshot({ path: artifact('ran-unwatched-1024x600.png') });
    // The step keys wait for the answer too (Alt+→ moved the hidden step: the answer then opened step 2).
    await page.keyboard.press('Alt+ArrowRight');
    await page.waitForTimeout(300);
    expect(new URL(page.url()).searchParams.get('step')).toBeNull();
  });

  it("a session taken back and worked on another computer asks nothing here: its time is the site's", async () => {
    // A walk: the morning here asked whether the night was work, of a session worked on elsewhere.
    await page.goto(new URL('/sessions', app.shell.url).toString());
    const row = page.getByTestId('session-row').filter({ hasText: 'WO-ELSEWHERE' });
    await row.waitFor();
    expect(await row.getByTestId('session-row-status').textContent()).toBe('In progress');
    expect(await row.getByTestId('session-row-ran').count()).toBe(0);
    expect(unwrap(await app.app.services.api.getSession(elsewhereId)).ranUnwatched).toBeNull();
    await expectFitsBothTextSizes(
      page,
      'ran-elsewhere-row',
      () => row,
      () => row.waitFor(),
      {
        width: 1024,
        height: 600,
      },
    );
    // Opened, it shows its step, with no question first.
    await page.goto(new URL(`/sessions/${elsewhereId}`, app.shell.url).toString());
    await page.getByTestId('session-step').waitFor();
    expect(await page.getByTestId('ran-unwatched').count()).toBe(0);
    await page.goto(new URL(`/sessions/${sessionId}`, app.shell.url).toString());
    await page.getByTestId('ran-unwatched').waitFor();
  });

  it('fits at every size, with Larger text', async () => {
    await expectFitsBothTextSizes(
      page,
      'ran-unwatched',
      () => page.getByTestId('ran-unwatched'),
      () => page.getByTestId('ran-unwatched').waitFor(),
      { width: 1024, height: 600 },
    );
  });

  it('"No", tapped twice with a glove, is one pause over the night on the site, and the step opens', async () => {
    await gloveDoubleTap(page, page.getByTestId('ran-unwatched-pause'));
    await page.getByTestId('session-step').waitFor();
    expect(await page.getByTestId('ran-unwatched').count()).toBe(0);
    // Focus goes on with the step (its first field), not to the page's top.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[data-testid="session-step"]') !== null))
      .toBe(true);
    const api = app.app.services.api;
    expect(unwrap(await api.flushOutbox())).toMatchObject({ pending: 0, failed: 0, conflicts: 0 });
    const session = unwrap(await api.getSession(sessionId));
    expect(session.pauseSeconds).toBe(openedAt - closedAt);
    const entry = site!.db
      .prepare('SELECT status, pause_duration FROM work_log WHERE entryid = ?')
      .get(session.entryid) as { status: string; pause_duration: number };
    expect(entry).toEqual({ status: 'started', pause_duration: openedAt - closedAt });
    expect(pageErrors).toEqual([]);
  });

  it('asleep with the step on screen: the question comes, the keyboard with it, "Yes" keeps it', async () => {
    const api = app.app.services.api;
    const before = unwrap(await api.getSession(sessionId)).pauseSeconds;
    const field = page.locator('[data-testid="step-form"] input, [data-testid="step-form"] textarea').first();
    await field.focus();
    now += 2 * HOUR;
    await page.getByTestId('ran-unwatched').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('ran-unwatched-span').textContent()).toBe('2 h');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('ran-unwatched-title');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('ran-unwatched-work');
    await page.keyboard.press('Enter');
    await page.getByTestId('session-step').waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[data-testid="session-step"]') !== null))
      .toBe(true);
    const kept = unwrap(await api.getSession(sessionId));
    expect(kept).toMatchObject({ ranUnwatched: null, pausedAt: null, pauseSeconds: before });
    expect(unwrap(await api.getOutbox()).summary.pending).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
