import { describe, expect, it } from 'vitest';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { unwrap } from '../helpers/library.ts';
import { officeSaves } from '../helpers/office-save.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile } from './browser.ts';

// A walk that read the site's record of a day against the app's: a note typed on three lines reached the site
// as typed, but the session's summary and its printed report ran it into one line, and a work order's two
// spaces became one. Both now show a value as the technician typed it.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 });
const DRAIN = DEMO_GUIDES.findIndex((guide) => guide.key === 'compressor-drain') + 1;
const NOTE = 'Line one of the notes.\nLine two: valve sticks.\n  - indented third line';

describe('a value as typed', () => {
  it('keeps its lines and spaces in the summary and the report', async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    const guide = unwrap(await api.getGuide(DRAIN));
    const step = guide.steps.find((s) => s.form?.fields.some((f) => f.type === 'Text Area'))!;
    const field = step.form!.fields.find((f) => f.type === 'Text Area')!;
    const session = unwrap(await api.startSession({ guideid: DRAIN, workorderid: 'WO-AS-TYPED' }));
    const values = [{ fieldGuid: field.fieldGuid, value: NOTE }];
    unwrap(await api.saveStepData({ sessionId: session.id, stepid: step.stepid, values }));
    unwrap(await api.transitionSession({ sessionId: session.id, transition: 'finish' }));

    await page.goto(new URL(`/sessions/${session.id}`, app.shell.url).toString());
    const summary = page.getByTestId('summary-value').filter({ hasText: field.label }).locator('td').last();
    await summary.waitFor();
    expect(await summary.evaluate((cell) => (cell as HTMLElement).innerText)).toContain(NOTE);

    await page.getByTestId('session-report-link').click();
    await page.locator('[data-testid="session-report"][data-ready="true"]').waitFor();
    const report = page.locator('.report-value').filter({ hasText: field.label }).locator('dd');
    expect(await report.evaluate((cell) => (cell as HTMLElement).innerText)).toContain(NOTE);
    await report.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact('report-as-typed.png') });
    expect(pageErrors).toEqual([]);
  });

  it("says in the summary, as in the report, a value saved here that the site's office changed since", async () => {
    // A walk that read the site's record: the summary showed the office's words as the session's own; only the
    // report and the Finish review said what the technician had saved.
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    const guide = unwrap(await api.getGuide(DRAIN));
    const step = guide.steps.find((s) => s.form?.fields.some((f) => f.type === 'Text Area'))!;
    const field = step.form!.fields.find((f) => f.type === 'Text Area')!;
    const session = unwrap(await api.startSession({ guideid: DRAIN, workorderid: 'WO-CHANGED-SUMMARY' }));
    const values = [{ fieldGuid: field.fieldGuid, value: 'Drained, clear' }];
    unwrap(await api.saveStepData({ sessionId: session.id, stepid: step.stepid, values }));
    unwrap(await api.flushOutbox());
    const { entryid } = unwrap(await api.getSession(session.id));
    const target = { fieldGuid: field.fieldGuid, stepid: step.stepid };
    await officeSaves(demo.site(), { entryid: entryid!, guideid: DRAIN }, target, 'Office: drained twice');
    expect(unwrap(await api.syncNow()).status).toBe('complete');
    unwrap(await api.transitionSession({ sessionId: session.id, transition: 'finish' }));

    await page.goto(new URL(`/sessions/${session.id}`, app.shell.url).toString());
    const summary = page.getByTestId('summary-value').filter({ hasText: field.label });
    await summary.waitFor();
    expect(await summary.getByTestId('summary-changed').textContent()).toMatch(
      /^Saved here as "Drained, clear", then changed on another computer or the site \(seen /,
    );
    expect(await summary.locator('.as-typed').textContent()).toBe('Office: drained twice');
    expect(pageErrors).toEqual([]);
  });
});
