import { describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { api as siteApi, signIn } from '../server/helpers.ts';
import { artifact, demoAppForFile } from './browser.ts';
import { placedProblems, STEP_PARTS } from './run-mode-checks.ts';
import { VIEWPORTS } from './screen-checks.ts';

// A walk of the run screen: a paused session with both run notices (typing restored, the guide revised on the
// site) and the paused line stood three boxes high over step 1, and put its second field (the hour meter) 26 px
// under the step bar at 1024x600 with Larger text. The whole step in view at the three sizes, both text sizes,
// with every word of the notices and the paused line still on the page.
const demo = capturingDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 });
const FORKLIFT = 10;
const FIELDS = '[data-testid="step-form"] [data-testid="form-field"]';

describe('a paused session with both run notices', () => {
  it('keeps step 1 whole between the header and the step bar at three sizes, both text sizes', async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    const session = unwrap(await api.startSession({ guideid: FORKLIFT, workorderid: 'WO-PAUSED-NOTICES' }));
    // The author revises step 4's form on the site after the session began.
    const { token } = await signIn(demo.site(), 'author');
    const forms = (await siteApi(demo.site(), 'GET', `/step_forms/guideid/${FORKLIFT}`, { token })).body as {
      stepid: number;
      fields: { label: string }[];
    }[];
    const forks = forms.find((form) => form.fields.some((field) => field.label === 'Fork condition'))!;
    const json = { fields: [{ field_type: 'Checkbox', label: 'Both fork locking pins engaged' }] };
    expect((await siteApi(demo.site(), 'POST', `/step_forms/${forks.stepid}`, { token, json })).status).toBe(201);
    unwrap(await api.syncNow());
    unwrap(await api.transitionSession({ sessionId: session.id, transition: 'pause' }));
    // Typing on step 1 left unsaved: restored on the next load.
    await page.goto(new URL(`/sessions/${session.id}?step=1`, app.shell.url).toString());
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    await page.getByTestId('form-field').first().locator('input').fill('FL-PAUSED');
    await page.getByTestId('draft-kept').first().waitFor();

    const problems: string[] = [];
    for (const large of [true, false]) {
      await page.evaluate((on) => {
        if (on) localStorage.setItem('fieldguide.textSize', 'large');
        else localStorage.removeItem('fieldguide.textSize');
      }, large);
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
        // What shows of each field of the step (its label, its control, its note when it says something) stands
        // between the header and the step bar.
        const out = await page.evaluate((fields) => {
          const header = document.querySelector('.session-header')!.getBoundingClientRect();
          const bar = document.querySelector('[data-testid="session-run-bar"]')!.getBoundingClientRect();
          const shown = [...document.querySelectorAll(fields)].flatMap((field) =>
            [...field.querySelectorAll('.form-label, input, select, textarea, .form-note')].filter(
              (el) => !el.matches('.form-note') || (el.textContent ?? '').trim() !== '',
            ),
          );
          return shown
            .map((el) => [el, el.getBoundingClientRect()] as const)
            .filter(([, box]) => box.top < header.bottom - 1 || box.bottom > bar.top + 1)
            .map(([el, box]) => {
              const what = el.closest('[data-testid="form-field"]')!.querySelector('.form-label')?.textContent?.trim();
              const where = `${Math.round(box.top)}-${Math.round(box.bottom)}`;
              return `"${what}" ${el.tagName.toLowerCase()}.${el.className} at ${where}, the step bar at ${bar.top}`;
            });
        }, FIELDS);
        problems.push(...out.map((line) => `${name}: ${line}`));
        // The paused line is said: on screen, and read in the page.
        const paused = await page.getByTestId('paused-note').textContent();
        if (!paused?.includes('the pause time is counting')) problems.push(`${name}: the paused line says "${paused}"`);
        await page.screenshot({ path: artifact(`run-notices-paused-${name}.png`) });
      }
    }
    await page.evaluate(() => localStorage.removeItem('fieldguide.textSize'));
    expect(problems).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
