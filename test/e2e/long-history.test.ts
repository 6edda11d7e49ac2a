import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcPath } from '../../electron/contract.ts';
import { LISTED } from '../../electron/core/outbox/outbox.ts';
import { isOpen } from '../../electron/shared/worklog.ts';
import { PASS } from '../fault/schedules.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { guideWithForms } from '../helpers/worklog.ts';
import { openSyncedDemoApp, type startApp } from './browser.ts';
import { expectLargerTextFits } from './screen-checks.ts';

// Weeks of work on one laptop: a long queue in the sync centre and a long history in Sessions are shown
// a part at a time (the first actions, the newest sessions), and say what else there is.
const demo = proxiedDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
const SIZE = { width: 1280, height: 900 };

beforeAll(async () => {
  ({ browser, app, page } = await openSyncedDemoApp(demo, SIZE, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the sync centre', () => {
  it('lists the first actions of a long queue and says how many more wait, at each size with Larger text', async () => {
    const { api } = app.app.services;
    const { guide } = await guideWithForms(api);
    // The work log refused for now (it stays queued): 35 sessions of 6 actions, 10 more than are listed.
    demo.setSchedule(({ path }) =>
      path.includes('/work_log') ? { kind: 'status', status: 503, message: 'Down for maintenance' } : PASS,
    );
    const sessions = 35;
    for (let i = 0; i < sessions; i++) {
      const session = unwrap(await api.startSession({ guideid: guide.guideid, workorderid: `WO-E2E-LONG-${i}` }));
      for (const transition of ['pause', 'resume', 'pause', 'resume', 'finish'] as const)
        unwrap(await api.transitionSession({ sessionId: session.id, transition }));
    }
    const view = unwrap(await api.getOutbox());
    expect(view.actions).toHaveLength(LISTED);
    expect(view.unlisted).toBe(sessions * 6 - LISTED);

    await page.goto(app.shell.url);
    await page.getByTestId('nav-sync').click();
    const unlisted = page.getByTestId('outbox-unlisted');
    await unlisted.waitFor({ timeout: 30_000 });
    expect(await unlisted.textContent()).toContain(`And ${sessions * 6 - LISTED} more changes after these`);
    expect(await page.getByTestId('outbox-action').count()).toBe(LISTED);
    await expectLargerTextFits(page, 'sync-long-queue', unlisted, SIZE);

    demo.setSchedule(null);
    await page.getByTestId('outbox-send-now').click();
    await page
      .getByTestId('outbox-summary')
      .filter({ hasText: 'Everything you did has reached the site.' })
      .waitFor({ timeout: 60_000 });
    await unlisted.waitFor({ state: 'detached', timeout: 30_000 });
    expect(pageErrors).toEqual([]);
  });
});

describe('the Sessions list', () => {
  it('lists open sessions, the newest 50 ended, Show 50 older the rest; a guide asks for its open ones', async () => {
    const { api } = app.app.services;
    const { guide } = await guideWithForms(api);
    const ended = 52;
    unwrap(await api.startSession({ guideid: guide.guideid, workorderid: 'WO-E2E-HISTORY-OPEN' }));
    for (let i = 0; i < ended; i++) {
      const session = unwrap(await api.startSession({ guideid: guide.guideid, workorderid: `WO-E2E-HISTORY-${i}` }));
      unwrap(await api.transitionSession({ sessionId: session.id, transition: 'finish' }));
    }
    // The sessions of the sync centre's test before, ended too, count among the older ones.
    const allEnded = unwrap(await api.listSessions({})).filter((s) => s.status === 'complete').length;
    expect(allEnded).toBeGreaterThan(ended);

    await page.goto(app.shell.url);
    await page.getByTestId('nav-sessions').click();
    const rows = page.locator('[data-testid="sessions"] [data-testid="session-row"]');
    const more = page.getByTestId('sessions-more');
    await more.waitFor({ timeout: 30_000 });
    expect(await rows.count()).toBe(1 + 50);
    expect(await rows.filter({ hasText: 'WO-E2E-HISTORY-OPEN' }).count()).toBe(1);
    // How many are left is not known (one more than shown was asked): no count promised on the button.
    expect((await more.textContent())?.trim()).toBe('Show older sessions');
    await expectLargerTextFits(page, 'sessions-long-history', more, SIZE);

    await more.click();
    const shown = 1 + Math.min(allEnded, 100);
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-testid="session-row"]').length === count,
      shown,
      { timeout: 30_000 },
    );
    if (allEnded <= 100) await more.waitFor({ state: 'detached', timeout: 30_000 });

    // The guide's page shows its open sessions only: it asks for those, not for the guide's whole history.
    const open = unwrap(await api.listSessions({ guideid: guide.guideid })).filter((s) => isOpen(s.status));
    const ofGuide = (response: Response) =>
      response.url().endsWith(rpcPath('listSessions')) &&
      (response.request().postDataJSON() as { args: [{ guideid?: number }] }).args[0].guideid === guide.guideid;
    const asked = page.waitForResponse(ofGuide);
    await page.goto(new URL(`/guides/${guide.guideid}`, app.shell.url).toString());
    const answer = (await (await asked).json()) as { ok: boolean; value: { workorderid: string }[] };
    expect(answer.value.map((s) => s.workorderid).sort()).toEqual(open.map((s) => s.workorderid).sort());
    await page.getByTestId('my-open-sessions').getByText('WO-E2E-HISTORY-OPEN').waitFor({ timeout: 30_000 });
    expect(pageErrors).toEqual([]);
  });

  it("shows a guide's newest two open sessions, the others on a tap, before the guide's steps", async () => {
    // One pre-shift check open per truck: the guide's panel listed every open session, a column of work
    // orders (about 140 px each with Larger text at 1024x600) before the guide's first step.
    const { api } = app.app.services;
    const { guide } = await guideWithForms(api);
    for (let truck = 1; truck <= 4; truck++)
      unwrap(await api.startSession({ guideid: guide.guideid, workorderid: `WO-E2E-TRUCK-${truck}` }));
    const open = unwrap(await api.listSessions({ guideid: guide.guideid, ended: 0 }));
    expect(open.length).toBeGreaterThanOrEqual(5);

    await page.goto(new URL(`/guides/${guide.guideid}`, app.shell.url).toString());
    const panel = page.getByTestId('my-open-sessions');
    const rows = panel.getByTestId('session-row');
    const more = page.getByTestId('my-open-sessions-more');
    await more.waitFor({ timeout: 30_000 });
    // The newest two: the last trucks started just now (often in the same second: the last started first),
    // not the older one.
    const texts = await rows.allTextContents();
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('WO-E2E-TRUCK-4');
    expect(texts[1]).toContain('WO-E2E-TRUCK-3');
    expect(await more.textContent()).toContain(`Show ${open.length - 2} more open sessions`);
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await more.click();
    await expect.poll(() => rows.count()).toBe(open.length);
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    expect(pageErrors).toEqual([]);
  });
});
