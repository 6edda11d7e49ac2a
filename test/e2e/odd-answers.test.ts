import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASS, type Fault } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { guideWithForms } from '../helpers/worklog.ts';
import { artifact, openSyncedDemoApp, type startApp } from './browser.ts';
import { expectLargerTextFits } from './screen-checks.ts';

// A start whose answer was lost, and a site that lists it in a shape this version cannot read (a status
// it does not know): the start is not sent again, the top bar says it waits and the Sync centre says why,
// readable at the three sizes with Larger text; once the site lists it readably, Send now finds it and
// nothing waits.
const demo = proxiedDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
const WORKORDER = 'WO-E2E-HIDDEN';

beforeAll(async () => {
  ({ browser, app, page } = await openSyncedDemoApp(demo, { width: 1280, height: 900 }, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('a lost start the site lists in a shape this version cannot read', () => {
  it('waits, said in the Sync centre, and is found once the site lists it readably', async () => {
    const { api: appApi } = app.app.services;
    const { guide } = await guideWithForms(appApi);
    let dropped = false;
    const unreadable = (text: string) => {
      const list = JSON.parse(text) as { results: Record<string, unknown>[] };
      return JSON.stringify({ ...list, results: list.results.map((entry) => ({ ...entry, status: 'archived' })) });
    };
    demo.setSchedule((request) => {
      if (request.method === 'POST' && /\/work_log$/.test(request.path) && !dropped) {
        dropped = true;
        return { kind: 'dropResponse' } satisfies Fault;
      }
      const lookup = request.method === 'GET' && request.path.includes(`workorderid=${WORKORDER}`);
      return lookup ? ({ kind: 'rewrite', body: unreadable } satisfies Fault) : PASS;
    });
    const session = unwrap(await appApi.startSession({ guideid: guide.guideid, workorderid: WORKORDER }));
    for (let i = 0; i < 3; i++) unwrap(await appApi.flushOutbox());
    expect(dropped).toBe(true);
    expect(unwrap(await appApi.getSession(session.id)).entryid).toBeNull();

    await page.goto(app.shell.url);
    await page.getByTestId('nav-sync').click();
    const start = page.locator('[data-testid="outbox-action"][data-kind="start"]');
    const said = start.getByTestId('outbox-action-error');
    await said.waitFor({ timeout: 15_000 });
    expect(await said.textContent()).toContain(
      `lists an entry for work order ${WORKORDER} that Fieldguide cannot read`,
    );
    // The top bar does not say "Sending" meanwhile: the change waits for another try.
    await expect.poll(() => page.getByTestId('status-chip').textContent()).toContain('1 waiting');
    // Paused meanwhile: the pause waits behind the start, and nothing is sent: "2 waiting", not "Sending 2…".
    unwrap(await appApi.transitionSession({ sessionId: session.id, transition: 'pause' }));
    await expect.poll(() => page.getByTestId('status-chip').textContent()).toBe('2 waiting');
    await expectLargerTextFits(page, 'outbox-start-unreadable', said);
    await page.screenshot({ path: artifact('outbox-start-unreadable.png'), fullPage: true });

    // The site lists it readably again: Send now, by keyboard, finds the start on the site.
    demo.setSchedule(null);
    await page.getByTestId('outbox-send-now').focus();
    await page.keyboard.press('Enter');
    await start.waitFor({ state: 'detached', timeout: 30_000 });
    expect(unwrap(await appApi.getSession(session.id)).entryid).not.toBeNull();
    expect(unwrap(await appApi.getOutbox()).summary).toMatchObject({ pending: 0, failed: 0 });
    expect(pageErrors).toEqual([]);
  });
});
