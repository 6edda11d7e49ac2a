import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUT_MS } from '../../electron/core/api/transport.ts';
import { CHECKS_AFTER } from '../../electron/core/worklog/replay/doubles-check.ts';
import { failFirst } from '../fault/proxy.ts';
import { api, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { guideWithForms } from '../helpers/worklog.ts';
import { artifact, openSyncedDemoApp, type startApp } from './browser.ts';

// A second entry a slow site made for one session (issue 24, item 4) is removed from the site and the
// technician is told: a notice in the sync centre, read with Understood, not counted as a conflict.
const demo = proxiedDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
/** How far the app's clocks are moved ahead: its check for a second copy comes at its own time. */
let ahead = 0;
const clocks = { clock: () => Date.now() + ahead, monotonic: () => performance.now() + ahead };

beforeAll(async () => {
  ({ browser, app, page } = await openSyncedDemoApp(demo, { width: 1280, height: 900 }, pageErrors, clocks));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('a second entry the site made for a session', () => {
  it('is removed from the site and said in the sync centre, until the technician has read it', async () => {
    const { api: appApi } = app.app.services;
    const { guide } = await guideWithForms(appApi);
    // The start reaches the site but its answer is lost: the app looks, finds it and adopts it.
    demo.setSchedule(failFirst(1, { kind: 'dropResponse' }, { paths: /\/work_log$/, method: 'POST' }));
    const session = unwrap(await appApi.startSession({ guideid: guide.guideid, workorderid: 'WO-E2E-TWICE' }));
    for (let i = 0; i < 10 && unwrap(await appApi.getSession(session.id)).entryid === null; i++) {
      unwrap(await appApi.flushOutbox());
    }
    demo.setSchedule(null);
    const { entryid, startedAt } = unwrap(await appApi.getSession(session.id));
    expect(entryid).not.toBeNull();
    // The site makes a second entry of the same start (a copy it applied late).
    const tech = await signIn(demo.site(), 'tech1');
    const body = { guideid: guide.guideid, workorderid: 'WO-E2E-TWICE', timestamp: startedAt };
    const second = await api(demo.site(), 'POST', '/work_log', { token: tech.token, json: body });
    expect(second.status).toBe(201);
    // The app checks at set times after the start (Send now does not hurry a check): its clocks move past them.
    ahead += CHECKS_AFTER.at(-1)! * DEFAULT_TIMEOUT_MS + 1000;
    unwrap(await appApi.flushOutbox());

    const listed = await api(demo.site(), 'GET', '/work_log?workorderid=WO-E2E-TWICE', { token: tech.token });
    expect((listed.body as { results: { entryid: number }[] }).results.map((e) => e.entryid)).toEqual([entryid]);
    expect(unwrap(await appApi.getOutbox()).summary).toMatchObject({ pending: 0, failed: 0, conflicts: 0 });

    await page.goto(app.shell.url);
    await page.getByTestId('nav-sync').click();
    const notice = page.locator('[data-testid="conflict"][data-kind="notice"]');
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.textContent()).toContain('A second entry removed');
    expect(await notice.textContent()).toContain(`entry ${entryid}`);
    await page.screenshot({ path: artifact('sync-notice-second-entry.png'), fullPage: true });
    await notice.getByTestId('notice-read').click();
    await notice.waitFor({ state: 'detached', timeout: 30_000 });
    expect(pageErrors).toEqual([]);
  });
});
