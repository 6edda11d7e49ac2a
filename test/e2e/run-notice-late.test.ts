import type { Page } from 'playwright-core';
import type { StepFormField } from '../../electron/contract.ts';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { sampleValue } from '../helpers/worklog.ts';
import { appPage, artifact, demoAppForFile } from './browser.ts';
import { reviseForkForm } from './run-mode-checks.ts';
import { VIEWPORTS } from './screen-checks.ts';

// A step's pictures were sized to the room under the instructions when the step showed, and not again when a
// notice came in above the step later (the guide revised on the site, the session paused): the step went down,
// and at 800x1280 with Larger text the picture, 394 px high, went under the step bar (332 px and whole where the
// notice was there first). A notice coming after the step shows, at the three sizes with Larger text: the
// pictures and the instructions stay whole above the step bar.
const demo = capturingDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 });
const FORKLIFT = 10;
const STEP = '[data-testid="session-step"]';

/** The heights of the step's pictures, once they have stopped changing (two looks 200 ms apart). */
async function settled(page: Page): Promise<string> {
  const sizes = () =>
    page
      .locator(`${STEP} [data-testid="step-image"]`)
      .evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().height)).join(' '));
  let seen = '';
  await expect
    .poll(async () => {
      const before = await sizes();
      await page.waitForTimeout(200);
      seen = await sizes();
      return before !== '' && before === seen;
    })
    .toBe(true);
  return seen;
}

/** The step's pictures and instruction lines that are not whole between the top of the step area and the bar. */
async function cut(page: Page, where: string): Promise<string[]> {
  const out = await page.evaluate((step) => {
    const bar = document.querySelector('[data-testid="session-run-bar"]')!.getBoundingClientRect();
    const area = document.querySelector('.session-scroll')!.getBoundingClientRect();
    return [...document.querySelectorAll(`${step} :is([data-testid="step-image"], .step-line)`)]
      .map((el) => [el, el.getBoundingClientRect()] as const)
      .filter(([, box]) => box.top < area.top - 1 || box.bottom > bar.top + 1)
      .map(([el, box]) => {
        const what = el.matches('.step-line') ? `"${(el.textContent ?? '').trim().slice(0, 30)}"` : 'a picture';
        return `${what} at ${Math.round(box.top)}-${Math.round(box.bottom)}, the step bar at ${Math.round(bar.top)}`;
      });
  }, STEP);
  return out.map((line) => `${where}: ${line}`);
}

describe('a notice coming in above a step already shown', () => {
  it('keeps its pictures and instructions whole above the step bar, at three sizes with Larger text', async () => {
    const { app, browser, pageErrors } = opened;
    const api = app.app.services.api;
    // Step 1 at 800x1280 and 1024x600, step 4 at 1366x768: room for pictures larger than a thumbnail.
    const cases = [
      { size: VIEWPORTS[0], step: 4 },
      { size: VIEWPORTS[1], step: 1 },
      { size: VIEWPORTS[2], step: 1 },
    ];
    const pages: { page: Page; name: string; sessionId: string; before: string }[] = [];
    for (const { size, step } of cases) {
      const workorder = `WO-LATE-${size.name}`;
      const session = unwrap(await api.startSession({ guideid: FORKLIFT, workorderid: workorder }));
      const page = await appPage(browser, app.shell, size);
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.addInitScript(() => localStorage.setItem('fieldguide.textSize', 'large'));
      await page.goto(new URL(`/sessions/${session.id}?step=${step}`, app.shell.url).toString());
      await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
      const name = `${size.name}-larger step ${step}`;
      pages.push({ page, name, sessionId: session.id, before: await settled(page) });
    }
    // With each step on screen, the author revises step 4's form on the site and the sync brings it; a value
    // saved on a later step tells each window (the revised guide's notice in the step area); then each session is
    // paused (the paused line in the header).
    await reviseForkForm(demo.site(), FORKLIFT);
    unwrap(await api.syncNow());
    const guide = unwrap(await api.getGuide(FORKLIFT));
    const takes = (f: StepFormField) => f.type !== 'Checkbox' && sampleValue(f) !== null;
    const later = guide.steps.slice(4).find((step) => step.form?.fields.some(takes))!;
    const field = later.form!.fields.find(takes)!;
    const laterValue = { fieldGuid: field.fieldGuid, value: sampleValue(field) };
    const problems: string[] = [];
    const seen: string[] = [];
    // The revised guide's notice, in the step area above the step; then the paused line, in the header.
    for (const notice of ['guide-revised', 'paused-note'] as const) {
      for (const shown of pages) {
        const { page, name, sessionId } = shown;
        if (notice === 'paused-note') unwrap(await api.transitionSession({ sessionId, transition: 'pause' }));
        else unwrap(await api.saveStepData({ sessionId, stepid: later.stepid, values: [laterValue] }));
        await page.getByTestId(notice).waitFor();
        const after = await settled(page);
        seen.push(`${name}: pictures ${shown.before} px high, ${after} with the ${notice}`);
        shown.before = after;
        // Not by giving up the room: larger than the thumbnail (102 px) at each size, as before the notice.
        if (Math.min(...after.split(' ').map(Number)) <= 102) problems.push(`${name}: pictures ${after} px high`);
        problems.push(...(await cut(page, `${name}, the ${notice} come`)));
        await page.screenshot({ path: artifact(`run-notice-late-${name.replace(' ', '-')}-${notice}.png`) });
      }
    }
    for (const { page } of pages) await page.context().close();
    expect(problems, seen.join('\n')).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
