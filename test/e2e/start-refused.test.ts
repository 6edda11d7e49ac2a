import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import { PASS } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { guideWithForms, photoGuide, sampleValue } from '../helpers/worklog.ts';
import { api, signIn } from '../server/helpers.ts';
import { artifact, openSyncedDemoApp, type startApp } from './browser.ts';
import { expectLargerTextFits } from './screen-checks.ts';

// A session started offline on a guide the site deletes meanwhile: the site refuses its start, so it can
// never be on the site. One Discard in the Sync centre ends it there (each action after the start failed
// in turn before, "This session was never created on the site": five discards for a start, a save, a
// pause, a resume and a finish), and the session says it is kept on this computer only, where it said
// "Everything has reached the site".
const demo = proxiedDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
const WORKORDER = 'WO-E2E-GUIDE-GONE';

beforeAll(async () => {
  ({ browser, app, page } = await openSyncedDemoApp(demo, { width: 1024, height: 600 }, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('a session whose start the site refused for good', () => {
  it('goes with one Discard, and says it is kept on this computer only', async () => {
    const { api: appApi } = app.app.services;
    const { guide, fields } = await guideWithForms(appApi);
    const { field, stepid } = fields.find(({ field }) => sampleValue(field) !== null)!;
    demo.setSchedule(() => ({ kind: 'reset' }));
    const session = unwrap(await appApi.startSession({ guideid: guide.guideid, workorderid: WORKORDER }));
    const value = sampleValue(field, 2);
    unwrap(
      await appApi.saveStepData({ sessionId: session.id, stepid, values: [{ fieldGuid: field.fieldGuid, value }] }),
    );
    for (const transition of ['pause', 'resume', 'finish'] as const)
      unwrap(await appApi.transitionSession({ sessionId: session.id, transition }));
    const admin = await signIn(demo.site(), 'admin');
    const query = { revisionid: guide.revisionid };
    const deleted = await api(demo.site(), 'DELETE', `/guides/${guide.guideid}`, { token: admin.token, query });
    expect(deleted.status).toBe(204);
    demo.setSchedule(null);
    unwrap(await appApi.flushOutbox());

    await page.goto(app.shell.url);
    await page.getByTestId('nav-sync').click();
    const start = page.locator('[data-testid="outbox-action"][data-kind="start"]');
    await start.getByTestId('outbox-action-error').waitFor();
    const said = start.getByTestId('outbox-action-error');
    expect(await said.textContent()).toContain(`"${guide.title}" was deleted on the site, which no longer takes this`);
    // What Discard does to the rest of the session is said before it is pressed.
    expect(await said.textContent()).toContain('Discard it to stop sending the rest of this session.');
    await expectLargerTextFits(page, 'outbox-start-refused', said, { width: 1024, height: 600 });
    await said.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact('outbox-start-refused.png') });
    await start.getByTestId('action-discard').click();
    await start.getByTestId('action-discard-confirm').click();
    await start.waitFor({ state: 'detached' });
    unwrap(await appApi.flushOutbox());
    await page.getByTestId('outbox-summary').filter({ hasText: 'Everything you did has reached the site.' }).waitFor();
    expect(await page.getByTestId('outbox-action').count()).toBe(0);

    await page.goto(new URL(`/sessions/${session.id}`, app.shell.url).toString());
    const site = page.getByTestId('summary-site');
    await site.waitFor();
    expect(await site.textContent()).toBe('Not on the site: kept on this computer only');
    expect(await page.getByTestId('session-sync').textContent()).toBe('Not on the site: kept on this computer only');
    await expectLargerTextFits(page, 'session-kept-here-only', site, { width: 1024, height: 600 });
    await page.screenshot({ path: artifact('session-kept-here-only.png') });
    // Its report puts the value with what did not reach the site, not with what the site refused.
    await page.getByTestId('session-report-link').click();
    const unsent = page.getByTestId('report-refused');
    await unsent.waitFor();
    expect(await unsent.locator('h2').textContent()).toBe('Not sent: refused by the site, or discarded');
    expect(await unsent.getByTestId('report-refused-value').allTextContents()).toEqual([
      expect.stringContaining(value!),
    ]);
    const kept = unwrap(await appApi.getSession(session.id));
    expect([kept.status, kept.entryid, kept.values.map((v) => v.value)]).toEqual(['complete', null, [value]]);
    expect(pageErrors).toEqual([]);
  });

  // A photo the site would not take, its upload discarded: the value that names it goes with it (it
  // would be refused next), and the session says that value stays here, not "Everything has reached".
  it('a photo whose upload was discarded: the session says that value is kept on this computer only', async () => {
    const { api: appApi } = app.app.services;
    const photo = await photoGuide(appApi);
    demo.setSchedule(({ path }) =>
      path.includes('/user/media') ? { kind: 'status', status: 413, message: 'Too large for this site' } : PASS,
    );
    const session = unwrap(await appApi.startSession({ guideid: photo.guide.guideid, workorderid: 'WO-E2E-TOO-BIG' }));
    const dataBase64 = encodePng(createCanvas(16, 12, [90, 40, 160])).toString('base64');
    const file = { stepid: photo.stepid, fieldGuid: photo.fieldGuid, name: 'too-big.png', mime: 'image/png' };
    unwrap(await appApi.attachFile({ sessionId: session.id, ...file, dataBase64 }));
    unwrap(await appApi.transitionSession({ sessionId: session.id, transition: 'finish' }));
    unwrap(await appApi.flushOutbox());

    await page.goto(new URL('/sync', app.shell.url).toString());
    const upload = page.locator('[data-testid="outbox-action"][data-kind="upload"]');
    await upload.getByTestId('action-discard').click();
    await upload.getByTestId('action-discard-confirm').click();
    await upload.waitFor({ state: 'detached' });
    demo.setSchedule(null);
    unwrap(await appApi.flushOutbox());
    await page.getByTestId('outbox-summary').filter({ hasText: 'Everything you did has reached the site.' }).waitFor();

    await page.goto(new URL(`/sessions/${session.id}`, app.shell.url).toString());
    const site = page.getByTestId('summary-site');
    await site.waitFor();
    expect(await site.textContent()).toBe('Not all: 1 value kept on this computer only');
    expect(await page.getByTestId('session-sync').textContent()).toBe('Not all: 1 value kept on this computer only');
    const kept = unwrap(await appApi.getSession(session.id));
    expect([kept.status, kept.entryid === null, kept.failedActions]).toEqual(['complete', false, 0]);
    expect(pageErrors).toEqual([]);
  });
});
