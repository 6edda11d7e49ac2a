import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile } from './browser.ts';
import { fieldsOutOfRoom, placedProblems, reviseForkForm, STEP_PARTS } from './run-mode-checks.ts';
import { setLargerText, VIEWPORTS } from './screen-checks.ts';

// A walk of the run screen: a paused session with both run notices (typing restored, the guide revised on the
// site) and the paused line stood three boxes high over step 1, and put its second field (the hour meter) 26 px
// under the step bar at 1024x600 with Larger text; later its note line, empty until one types there, then "Not
// saved yet · kept on this computer", at 512-537 against the bar at 526. The whole step in view at the three
// sizes, both text sizes, notes included, with every word of the notices and the paused line still on the page.
const demo = capturingDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 });
const FORKLIFT = 10;
const FIELDS = '[data-testid="step-form"] [data-testid="form-field"]';
/** What of the step moves when the form grows as one types: the form, its fields, the instructions, the pictures. */
const STEP_BOXES = [
  '[data-testid="step-form"]',
  FIELDS,
  '[data-testid="session-step"] :is(.step-line, [data-testid="step-image"])',
].join(', ');

/**
 * What the step bar says beside the time worked, to the eye and to a screen reader, and whether the bar stands on
 * one row (every part of it beside the first).
 */
const stepBarTime = (page: Page): Promise<string> =>
  page.getByTestId('session-run-bar').evaluate((bar) => {
    const timer = bar.querySelector('[data-testid="run-timer"]');
    const [first, ...rest] = [...bar.children].map((el) => el.getBoundingClientRect());
    const oneRow = rest.every((box) => box.top < first!.bottom && box.bottom > first!.top);
    const said = timer
      ? `${timer.querySelector('.timer-label')?.textContent} [${timer.getAttribute('aria-label')}]`
      : '';
    return `${said} on ${oneRow ? 'one row' : 'more than one row'}`;
  });
let pausedId = '';

describe('a paused session with both run notices', () => {
  it('keeps step 1 whole between the header and the step bar at three sizes, both text sizes', async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    const session = unwrap(await api.startSession({ guideid: FORKLIFT, workorderid: 'WO-PAUSED-NOTICES' }));
    pausedId = session.id;
    // The author revises step 4's form on the site after the session began.
    await reviseForkForm(demo.site(), FORKLIFT);
    unwrap(await api.syncNow());
    unwrap(await api.transitionSession({ sessionId: session.id, transition: 'pause' }));
    // Typing on step 1 left unsaved: restored on the next load.
    await page.goto(new URL(`/sessions/${session.id}?step=1`, app.shell.url).toString());
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    await page.getByTestId('form-field').first().locator('input').fill('FL-PAUSED');
    await page.getByTestId('draft-kept').first().waitFor();

    const problems: string[] = [];
    for (const large of [true, false]) {
      await setLargerText(page, large);
      for (const size of VIEWPORTS) {
        const name = `${size.name}${large ? '-larger' : ''}`;
        await page.setViewportSize(size);
        await page.reload();
        await page.getByTestId('draft-restored').waitFor();
        await page.getByTestId('guide-revised').getByText('Both fork locking pins engaged', { exact: false }).waitFor({
          state: 'attached',
        });
        await page.getByTestId('paused-note').waitFor({ state: 'attached' });
        await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
        await page.waitForTimeout(150);
        const parts: Record<string, string> = {
          ...STEP_PARTS,
          'first field': `${FIELDS}[data-type="Text Input"] input`,
          'second field': `${FIELDS}[data-type="Numeric Input"] input`,
          "restored typing's OK": '[data-testid="draft-restored"] button:last-child',
          "revised guide's OK": '[data-testid="guide-revised"] button:last-child',
          'paused line': '[data-testid="paused-note"]',
        };
        problems.push(...(await placedProblems(page, parts, name)));
        // Each field of the step (its label, its control, its note line) stands between the header and the step bar.
        problems.push(...(await fieldsOutOfRoom(page, name)));
        // Typing in the second field says "Not saved yet" in its note line, where it stands: nothing moves.
        const second = page.locator(parts['second field']!);
        const boxes = () =>
          page
            .locator(STEP_BOXES)
            .evaluateAll((els) =>
              els.map((el) => `${Math.round(el.getBoundingClientRect().top)}+${el.clientHeight}`).join(' '),
            );
        const before = await boxes();
        await second.fill(`12${VIEWPORTS.indexOf(size)}${large ? 1 : 0}`);
        await page.locator(FIELDS).nth(1).getByTestId('draft-kept').waitFor();
        problems.push(...(await fieldsOutOfRoom(page, `${name}, the second field typed`)));
        const after = await boxes();
        if (after !== before) problems.push(`${name}: typing moved the step (${before} to ${after})`);
        // The paused line is said: on screen, and read in the page.
        const paused = await page.getByTestId('paused-note').textContent();
        if (!paused?.includes('the pause time is counting')) problems.push(`${name}: the paused line says "${paused}"`);
        // The step bar says paused beside the time worked: "Active 0:00:14" read as running mid-break.
        const time = await stepBarTime(page);
        if (time !== 'Paused [Paused: active time so far] on one row') problems.push(`${name}: the step bar: ${time}`);
        await page.screenshot({ path: artifact(`run-notices-paused-${name}.png`) });
      }
    }
    await page.evaluate(() => localStorage.removeItem('fieldguide.textSize'));
    expect(problems).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('the step bar says the state beside the time worked: resumed, handed over, finished, cancelled', async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    const ended = async (workorderid: string, transition: 'finish' | 'cancel') => {
      const session = unwrap(await api.startSession({ guideid: FORKLIFT, workorderid }));
      unwrap(await api.transitionSession({ sessionId: session.id, transition }));
      return session.id;
    };
    const [finished, cancelled] = [await ended('WO-BAR-DONE', 'finish'), await ended('WO-BAR-CANCELLED', 'cancel')];
    const seen: string[] = [];
    const look = async (id: string, state: string) => {
      for (const size of [VIEWPORTS[2], VIEWPORTS[1]]) {
        await page.setViewportSize(size);
        await page.goto(new URL(`/sessions/${id}?step=1`, app.shell.url).toString());
        await page.locator(`[data-testid="session"][data-status="${state}"]`).waitFor();
        await page.getByTestId('run-timer').waitFor();
        seen.push(`${state} at ${size.name}: ${await stepBarTime(page)}`);
        await page.screenshot({ path: artifact(`run-bar-time-${state}-${size.name}-larger.png`) });
      }
    };
    await setLargerText(page, true);
    // Resumed from the run screen: "Active" again, as soon as it runs.
    await page.goto(new URL(`/sessions/${pausedId}?step=1`, app.shell.url).toString());
    await page.getByTestId('session-resume').click();
    await page.locator('[data-testid="session"][data-status="started"]').waitFor();
    expect(await stepBarTime(page)).toBe('Active [Active time] on one row');
    await look(pausedId, 'started');
    unwrap(await api.transitionSession({ sessionId: pausedId, transition: 'suspend' }));
    await look(pausedId, 'suspended');
    await look(finished, 'complete');
    await look(cancelled, 'cancelled');
    await page.evaluate(() => localStorage.removeItem('fieldguide.textSize'));
    expect(seen).toEqual(
      [
        ['started', 'Active [Active time]'],
        ['suspended', 'Handed over [Handed over: active time so far]'],
        ['complete', 'Complete [Complete: active time]'],
        ['cancelled', 'Cancelled [Cancelled: active time]'],
      ].flatMap(([state, said]) =>
        [VIEWPORTS[2], VIEWPORTS[1]].map((size) => `${state} at ${size.name}: ${said} on one row`),
      ),
    );
    expect(pageErrors).toEqual([]);
  });
});
