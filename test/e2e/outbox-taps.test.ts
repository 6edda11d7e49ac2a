import { describe, expect, it } from 'vitest';
import { PASS } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { guideWithForms, sampleValue } from '../helpers/worklog.ts';
import { artifact, demoAppForFile, gloveDoubleTap } from './browser.ts';
import { expectLargerTextFits } from './screen-checks.ts';

// The Sync centre's Retry and Discard, by glove and by keyboard.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1024, height: 600 });

describe('Retry and Discard in the Sync centre', () => {
  // Three sessions whose saves the site refused: a gloved double tap on Discard discarded two (the list
  // moved up under the finger, the second tap on the next one's Discard, unasked), and one on Retry sent
  // the save twice; the keyboard's focus fell to the page's body after either (a helper's walk).
  it('Discard asks first, a double tap discards nothing unasked, a double tap on Retry sends once', async () => {
    const { app, page, pageErrors } = opened;
    const { api: appApi } = app.app.services;
    const { guide, fields } = await guideWithForms(appApi);
    const { field, stepid } = fields.find(({ field }) => sampleValue(field) !== null)!;
    const refuse = () =>
      demo.setSchedule(({ path }) =>
        path.includes('/stepData') ? { kind: 'status', status: 422, message: 'The value is not allowed' } : PASS,
      );
    refuse();
    for (const workorder of ['WO-TAP-1', 'WO-TAP-2', 'WO-TAP-3']) {
      const session = unwrap(await appApi.startSession({ guideid: guide.guideid, workorderid: workorder }));
      const values = [{ fieldGuid: field.fieldGuid, value: sampleValue(field) }];
      unwrap(await appApi.saveStepData({ sessionId: session.id, stepid, values }));
    }
    for (let i = 0; i < 3; i++) unwrap(await appApi.flushOutbox());
    expect(unwrap(await appApi.getOutbox()).summary.failed).toBe(3);
    await page.goto(new URL('/sync', app.shell.url).toString());
    const failed = page.locator('[data-testid="outbox-action"][data-state="failed"]');
    await failed.first().waitFor();
    const tapTwice = (testid: string) => gloveDoubleTap(page, failed.first().getByTestId(testid));

    await tapTwice('action-discard');
    await page.waitForTimeout(500);
    await page.screenshot({ path: artifact('outbox-discard-double-tap.png') });
    expect(unwrap(await appApi.getOutbox()).summary.failed).toBe(3);
    const question = failed.first().getByTestId('action-discard-question');
    expect((await question.locator('p').textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      'Discard this change? It will not be sent to the site, and it cannot be brought back.',
    );
    await failed.first().getByTestId('action-discard-keep').click();
    await question.waitFor({ state: 'detached' });
    // By keyboard: Discard by Enter puts the focus on "Keep it"; Enter there keeps the change, the focus
    // back on Discard.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await failed.first().getByTestId('action-discard').focus();
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('action-discard-keep');
    await expectLargerTextFits(page, 'outbox-discard-question', question, { width: 1024, height: 600 });
    await failed.first().getByTestId('action-discard-keep').focus();
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('action-discard');
    // The question is named by its words, and Escape puts it away as "Keep it" does (it stayed open).
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('action-discard-keep');
    expect(
      await failed
        .first()
        .getByRole('group', { name: /^Discard this change\?/ })
        .count(),
    ).toBe(1);
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('action-discard');
    await page.keyboard.press('Enter');
    await page.getByTestId('action-discard-confirm').click();
    await expect.poll(async () => unwrap(await appApi.getOutbox()).summary.failed).toBe(2);
    // The focus on what shows it happened: the outbox's summary, not the page's body (it is put there once the
    // list has been drawn without the change, after the count read here).
    await expect.poll(focused).toBe('outbox-summary');

    demo.proxy().clearLog();
    await tapTwice('action-retry');
    const sent = () => demo.proxy().requestsTo(/\/stepData/).length;
    await expect.poll(sent, { timeout: 15_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(1000);
    expect(sent()).toBe(1);
    // Refused again: the focus on the action, or its Retry (it fell to the page's body when the button went);
    // or on the outbox's summary, where the action was not listed as the retry's answer came (in CI, under
    // load: the action was out being sent).
    const onAction = () =>
      page.evaluate(
        () => document.activeElement?.closest('[data-testid="outbox-action"], [data-testid="outbox-summary"]') != null,
      );
    await expect.poll(onAction).toBe(true);
    demo.setSchedule(null);
    expect(pageErrors).toEqual([]);
  });
});
