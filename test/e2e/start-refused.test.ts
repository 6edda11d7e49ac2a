import type { Browser, Page } from 'playwright-core';
import type { GuideDetail, StepFormField } from '../../electron/contract.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import { PASS } from '../fault/proxy.ts';
import { signOffField } from '../../electron/shared/field-answers.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
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
const withoutSignOff = (guide: GuideDetail) => signOffField(guide) === null;
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
const WORKORDER = 'WO-E2E-GUIDE-GONE';
// A site's refusal in full, as long as real ones are.
const LONG_REFUSAL =
  'This value cannot be recorded for this field: the entry is locked by a review that a supervisor opened on ' +
  "it. Values are taken again once the review is closed under Work log > Reviews; ask the site's " +
  'administrator or the supervisor who opened it to close it, then send the value again from this device.';

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
    // The guide the site deletes: not the one with a sign-off field of its own (the report's test needs it).
    const { guide, fields } = await guideWithForms(appApi, withoutSignOff);
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

  // A walk's report at 1366x768: a refusal of some 280 characters squeezed the step's and the field's
  // columns to a word's width and less ("Tempera|ture"), the table laid out by its longest text.
  it("a long refusal in the report leaves the step's and the field's words whole", async () => {
    const { api: appApi } = app.app.services;
    // A guide the first test did not have deleted, with a field to fill and one for a sign-off.
    const gone = (await guideWithForms(appApi, withoutSignOff)).guide.guideid;
    let found: { guide: GuideDetail; stepid: number; field: StepFormField } | null = null;
    for (const { guideid } of await allLocalGuides(appApi)) {
      const guide = unwrap(await appApi.getGuide(guideid));
      if (signOffField(guide) === null) continue;
      for (const step of guide.steps)
        for (const field of step.form?.fields ?? [])
          if (!found && guideid !== gone && field.type === 'Text Input') found = { guide, stepid: step.stepid, field };
    }
    const { guide, stepid, field } = found!;
    const session = unwrap(await appApi.startSession({ guideid: guide.guideid, workorderid: 'WO-E2E-LONG-NO' }));
    unwrap(await appApi.flushOutbox());
    demo.setSchedule(({ path }) =>
      path.includes('/stepData') ? { kind: 'status', status: 400, message: LONG_REFUSAL } : PASS,
    );
    const value = sampleValue(field, 3);
    unwrap(
      await appApi.saveStepData({ sessionId: session.id, stepid, values: [{ fieldGuid: field.fieldGuid, value }] }),
    );
    unwrap(await appApi.flushOutbox());
    demo.setSchedule(null);
    await page.goto(new URL(`/sessions/${session.id}/report`, app.shell.url).toString());
    const row = page.getByTestId('report-refused-value');
    await row.waitFor();
    expect(await row.getByTestId('report-why').textContent()).toContain('Work log > Reviews');
    // Each word of the step's and the field's cells on one line: none broken inside.
    const broken = await row.evaluate((r) =>
      [...r.querySelectorAll('td')].slice(0, 2).flatMap((td) => {
        const text = td.firstChild!;
        const words: string[] = [];
        for (const match of text.textContent!.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(text, match.index);
          range.setEnd(text, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].map((box) => Math.round(box.top)));
          if (lines.size > 1) words.push(match[0]);
        }
        return words;
      }),
    );
    expect(broken).toEqual([]);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact('report-long-refusal.png') });
    // Finished and signed off behind the refusal: the sign-off waits behind it, not "for the site to answer"
    // (a walk's report said so while the site answered all along).
    const signOff = { how: 'typed' as const, typed: DEMO_ACCOUNTS.tech1.username };
    unwrap(await appApi.transitionSession({ sessionId: session.id, transition: 'finish', signOff }));
    unwrap(await appApi.flushOutbox());
    await page.reload();
    const where = page.getByTestId('report-sign-off-where');
    await where.waitFor();
    expect(await where.textContent()).toContain('it waits behind what the site refused (see the sync centre)');
    expect(pageErrors).toEqual([]);
  });
});
