import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUCK_AFTER_REFUSALS, STUCK_MIN_SECONDS } from '../../electron/core/outbox/backoff.ts';
import { PASS } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { guideWithForms, sampleValue } from '../helpers/worklog.ts';
import { openSyncedDemoApp, type startApp } from './browser.ts';
import { checkLargerText, formatProblems } from './screen-checks.ts';

// A step save the site keeps answering with a 500: in the sync centre it is stuck, in the site's words,
// with Retry and Discard; once the site is back, Retry sends it.
const demo = proxiedDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
let shift = 0;

beforeAll(async () => {
  // The laptop's clocks run `shift` ahead: half an hour of refusals passes between a few presses of Send now.
  const clocks = { clock: () => Date.now() + shift, monotonic: () => performance.now() + shift };
  ({ browser, app, page } = await openSyncedDemoApp(demo, { width: 1280, height: 900 }, pageErrors, clocks));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the sync centre', () => {
  it('shows a stuck action with the site message, and Retry sends it once the site is back', async () => {
    const { api } = app.app.services;
    const { guide, fields } = await guideWithForms(api);
    const { field, stepid } = fields.find((f) => sampleValue(f.field) !== null)!;
    demo.setSchedule(({ path }) =>
      path.includes('/stepData')
        ? { kind: 'status', status: 500, message: 'The work log database is unavailable' }
        : PASS,
    );
    const session = unwrap(await api.startSession({ guideid: guide.guideid, workorderid: 'WO-E2E-STUCK' }));
    unwrap(
      await api.saveStepData({
        sessionId: session.id,
        stepid,
        values: [{ fieldGuid: field.fieldGuid, value: sampleValue(field) }],
      }),
    );
    for (let i = 0; i < STUCK_AFTER_REFUSALS; i++) {
      if (i > 0) shift += Math.ceil((STUCK_MIN_SECONDS * 1000) / (STUCK_AFTER_REFUSALS - 1));
      unwrap(await api.flushOutbox());
    }

    await page.goto(app.shell.url);
    await page.getByTestId('nav-sync').click();
    const stuck = page.locator('[data-testid="outbox-action"][data-stuck="true"]');
    await stuck.waitFor({ timeout: 30_000 });
    expect(await stuck.textContent()).toContain('Stuck');
    expect(await stuck.getByTestId('outbox-action-error').textContent()).toContain(
      'The work log database is unavailable',
    );
    expect(await stuck.getByTestId('action-discard').isVisible()).toBe(true);
    // When it was done here, in words that cannot be read as "sent".
    expect(await stuck.getByTestId('outbox-action-when').textContent()).toMatch(/^Recorded on this computer \S/);
    // Read and answered as a technician meets it: at the three sizes with Larger text, Retry and Discard
    // whole and in reach beside the site's words.
    const problems = await checkLargerText(
      page,
      'outbox-stuck',
      () => stuck.evaluate((row) => row.scrollIntoView({ block: 'center' })),
      { width: 1280, height: 900 },
    );
    expect(formatProblems(problems)).toBe('');

    demo.setSchedule(null);
    await stuck.getByTestId('action-retry').click();
    await stuck.waitFor({ state: 'detached', timeout: 30_000 });
    expect(unwrap(await api.getOutbox()).summary).toMatchObject({ pending: 0, failed: 0 });
    expect(pageErrors).toEqual([]);
  });
});
