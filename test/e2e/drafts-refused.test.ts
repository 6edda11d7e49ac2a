import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { guideWithForms } from '../helpers/worklog.ts';
import { appPage, artifact, openSyncedDemoApp, refuseDraftWrites, type startApp } from './browser.ts';
import { checkScreen, formatProblems, VIEWPORTS, type ScreenProblem } from './screen-checks.ts';

// Drafts the window cannot write down (found walking a full disk in Chromium, the browser's profile on it):
// a box ticked said nothing, and after a reload it was unticked ("Not answered yet") with no word; a step
// opened with IndexedDB refusing never became ready (its fields disabled) and Finish… did nothing. Here
// IndexedDB refuses as a full disk makes it (QuotaExceededError), in real Chromium over the real core.
const demo = proxiedDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
let sessionUrl = '';
let label = '';

/** IndexedDB refused whole: the window's drafts database cannot even be opened. */
const refuseOpen = () => {
  IDBFactory.prototype.open = () => {
    throw new DOMException('The disk is full.', 'QuotaExceededError');
  };
};

async function openStep(): Promise<void> {
  await page.goto(sessionUrl);
  await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor({ timeout: 30_000 });
}

beforeAll(async () => {
  ({ browser, app, page } = await openSyncedDemoApp(demo, { width: 1366, height: 768 }, pageErrors));
  const { api } = app.app.services;
  const { guide, fields } = await guideWithForms(api);
  const text = fields.find(({ field }) => field.type === 'Text Input')!;
  label = text.field.label;
  const session = unwrap(await api.startSession({ guideid: guide.guideid, workorderid: 'WO-DRAFTS-FULL' }));
  const number = guide.steps.findIndex((step) => step.stepid === text.stepid) + 1;
  sessionUrl = new URL(`/sessions/${session.id}?step=${number}`, app.shell.url).toString();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('drafts this computer cannot write down', () => {
  it('are said at the field, and the step saves them all the same', async () => {
    await page.addInitScript(refuseDraftWrites);
    await openStep();
    const field = page.getByTestId('form-field').filter({ hasText: label });
    await field.locator('input').fill('Serial SN-FULL-1');
    const said = field.getByTestId('draft-not-kept');
    await said.waitFor();
    expect(await said.textContent()).toBe(
      'Not saved yet, and this computer could not keep it (its disk may be full): save this step now.',
    );
    expect(await field.getByTestId('draft-kept').count()).toBe(0);
    await page.screenshot({ path: artifact('drafts-refused-field.png') });
    // Read whole where a technician meets it: at the three sizes, in both text sizes (set in the page as the
    // app sets it: a reload would take the word away, the draft being unkept), above the step bar.
    const problems: ScreenProblem[] = [];
    for (const large of [false, true]) {
      await page.evaluate((on) => {
        document.documentElement.style.fontSize = on ? '19px' : '';
        if (on) document.documentElement.dataset.textSize = 'large';
        else delete document.documentElement.dataset.textSize;
      }, large);
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await said.scrollIntoViewIfNeeded();
        const screen = `drafts-refused${large ? '-larger' : ''}`;
        await page.screenshot({ path: artifact(`${screen}-${viewport.name}.png`) });
        problems.push(...(await checkScreen(page, screen, viewport)));
        const clear = await said.evaluate((note) => {
          const bar = document.querySelector('[data-testid="session-run-bar"]')!.getBoundingClientRect();
          return note.getBoundingClientRect().bottom <= bar.top;
        });
        if (!clear)
          problems.push({ screen, viewport: viewport.name, kind: 'bars', what: 'the warning under the step bar' });
      }
    }
    await page.setViewportSize({ width: 1366, height: 768 });
    expect(formatProblems(problems)).toBe('');
    await page.getByTestId('step-save').click();
    await said.waitFor({ state: 'detached' });
    const saved = unwrap(await app.app.services.api.getSession(sessionUrl.split('/sessions/')[1]!.split('?')[0]!));
    expect(saved.values.map((v) => v.value)).toContain('Serial SN-FULL-1');
    expect(pageErrors).toEqual([]);
  });

  it('typed and not kept, then left by "‹ Guide": saved on the way out, not lost without a word', async () => {
    // A walk of a full disk: a note typed at 800x1280, "‹ Guide" tapped, the session opened again: the note
    // was gone, and nothing had said so. The core still saved on its reserve; leaving did not ask it to.
    await openStep();
    const field = page.getByTestId('form-field').filter({ hasText: label });
    await field.locator('input').fill('Serial SN-FULL-LEFT');
    await field.getByTestId('draft-not-kept').waitFor();
    await page.getByTestId('session-leave').click();
    await page.getByTestId('guide').waitFor();
    const id = sessionUrl.split('/sessions/')[1]!.split('?')[0]!;
    const saved = unwrap(await app.app.services.api.getSession(id));
    expect(saved.values.map((v) => v.value)).toContain('Serial SN-FULL-LEFT');
    expect(pageErrors).toEqual([]);
  });

  it('opened with IndexedDB refused whole: the step takes typing, and Finish opens its review', async () => {
    page = await appPage(browser, app.shell, { width: 1366, height: 768 });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.addInitScript(refuseOpen);
    await openStep();
    const field = page.getByTestId('form-field').filter({ hasText: label });
    expect(await field.locator('input').isEnabled()).toBe(true);
    await field.locator('input').fill('Serial SN-FULL-2');
    await field.getByTestId('draft-not-kept').waitFor();
    await page.getByTestId('session-finish').click();
    await page.getByTestId('finish-review').waitFor();
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
