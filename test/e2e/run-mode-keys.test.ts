import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { artifact, openDemoApp, syncDemoWorkshop, type startApp } from './browser.ts';

// Issue 28, acceptance 6: a whole forklift inspection with the run mode's keys (Alt+→ / Alt+← to move,
// Ctrl+S to save, F1 for the list of keys), and after every action the focus is where the work goes on:
// the step's first field or its heading, back on what opened a dialog, the review's heading, the summary.
const demo = capturingDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
const FORKLIFT = 'Forklift Daily Pre-Shift Inspection';
const STEPS = 13;

beforeAll(async () => {
  ({ browser, app, page } = await openDemoApp(demo, { width: 1024, height: 600 }, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

interface Focused {
  tag: string;
  testid: string | null;
  type: string | null;
  label: string;
  inView: boolean;
}
const focused = (): Promise<Focused> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const box = el?.getBoundingClientRect();
    return {
      tag: el?.tagName.toLowerCase() ?? 'none',
      testid: el?.getAttribute('data-testid') ?? null,
      type: el?.getAttribute('type') ?? null,
      label: (el?.closest('[data-testid="form-field"]')?.querySelector('label, legend')?.textContent ?? '').trim(),
      inView: !!box && box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth,
    };
  });
async function expectFocus(check: (f: Focused) => boolean, what: string): Promise<void> {
  await expect
    .poll(async () => check(await focused()), { message: `focus on ${what}: ${JSON.stringify(await focused())}` })
    .toBe(true);
  expect((await focused()).inView, `${what} in view`).toBe(true);
}
const onStep = async (n: number, of = STEPS) => {
  await page
    .getByTestId('step-count')
    .filter({ hasText: `Step ${n} of ${of}` })
    .waitFor();
  if ((await page.getByTestId('step-form').count()) > 0)
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
};
/** The step's first field when it has a form, else its heading. */
const atStepStart = (f: Focused) => ['input', 'select', 'textarea'].includes(f.tag) || f.testid === 'step-heading';
/** A move is taken once the last one has settled (one step per press): Next shows it. */
const settled = () =>
  page.waitForFunction(() => {
    const count = document.querySelector('[data-testid="step-count"]')?.textContent ?? '';
    // Off while a move settles: aria-disabled (a disabled button took a glove's bounce to the page's body).
    const off = (id: string) => {
      const button = document.querySelector<HTMLButtonElement>(`[data-testid="${id}"]`);
      return button?.disabled === true || button?.getAttribute('aria-disabled') === 'true';
    };
    return !off('step-next') && (!off('step-previous') || count.startsWith('Step 1 of'));
  });
const savedValues = async (): Promise<string[]> => {
  const id = (await page.getByTestId('session').getAttribute('data-session-id'))!;
  const session = await app.app.services.api.getSession(id);
  if (!session.ok) throw new Error(session.error.message);
  return session.value.values.map((v) => v.value ?? '').sort();
};

describe('a whole session with the run mode keys (issue 28, acceptance 6)', () => {
  it('syncs the demo workshop and starts a forklift inspection; focus on the first field', async () => {
    await syncDemoWorkshop(page, app.shell.url);
    await page.getByTestId('guide-row').filter({ hasText: FORKLIFT }).first().click();
    await page.getByTestId('workorder-input').fill('WO-KEYS-RUN');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}/);
    await onStep(1);
    await expectFocus((f) => f.tag === 'input' && f.label.startsWith('Truck number'), 'the truck number field');
  });

  it('Ctrl+S saves the step and leaves focus in the field', async () => {
    await page.keyboard.type('FL-KEYS');
    await page.keyboard.press('Tab');
    await page.keyboard.type('4321');
    await page.keyboard.press('Control+s');
    await expect.poll(savedValues).toEqual(['4321', 'FL-KEYS']);
    await expectFocus((f) => f.tag === 'input' && f.label.startsWith('Hour meter'), 'the hour meter field');
    // Enter on Save: the keyboard stays on Save while it saves and after (it fell to the page's body).
    await page.keyboard.type('5');
    // Once the last save's answer is in (the site's copy can be read before the window has it): a press while
    // a save runs is ignored, its value kept as typed.
    await expect.poll(() => page.getByTestId('step-save').getAttribute('aria-disabled')).toBe(null);
    await page.getByTestId('step-save').focus();
    await page.keyboard.press('Enter');
    await expect.poll(savedValues, { timeout: 10_000 }).toEqual(['43215', 'FL-KEYS']);
    await expectFocus((f) => f.testid === 'step-save', 'Save');
    await page.locator('[data-testid="form-field"]').nth(1).locator('input').focus();
  });

  it('F1 lists the keys; Escape closes the list and focus returns to the field', async () => {
    await page.keyboard.press('F1');
    await page.getByTestId('run-help').waitFor();
    expect(await page.getByTestId('run-help').textContent()).toMatch(/Alt.*→.*Next step.*Alt.*←.*Ctrl.*S/s);
    await page.screenshot({ path: artifact('run-keys-help.png') });
    await page.keyboard.press('Escape');
    await page.getByTestId('run-help').waitFor({ state: 'hidden' });
    await expectFocus((f) => f.tag === 'input' && f.label.startsWith('Hour meter'), 'the hour meter field');
  });

  it('Alt+→ walks every step to the last, one step per press, focus on each step', async () => {
    for (let n = 2; n <= STEPS; n++) {
      await settled();
      await page.keyboard.press('Alt+ArrowRight');
      await onStep(n);
      await expectFocus(atStepStart, `the start of step ${n}`);
      // Step 9's seat belt checkbox is ticked with Space, where the focus put it.
      if (n === 9) {
        await expectFocus((f) => f.type === 'checkbox', 'the seat belt checkbox of step 9');
        await page.keyboard.press('Space');
      }
    }
    expect(await savedValues()).toContain('1');
  });

  it('Alt+← goes back a step and Alt+→ returns; bare arrows and letters move nothing', async () => {
    await settled();
    await page.keyboard.press('Alt+ArrowLeft');
    await onStep(STEPS - 1);
    await expectFocus(atStepStart, `the start of step ${STEPS - 1}`);
    await settled();
    for (const key of ['ArrowRight', 'n', 'Enter']) await page.keyboard.press(key);
    expect(await page.getByTestId('step-count').textContent()).toBe(`Step ${STEPS - 1} of ${STEPS}`);
    // Enter on Next: the last step's only field is the sign-off's (not typed), and Finish takes Next's place.
    // The focus goes to its heading (it fell to nothing, and the next Tab off the page: a flapping Wi-Fi walk).
    await page.getByTestId('step-next').focus();
    await page.keyboard.press('Enter');
    await onStep(STEPS);
    await expectFocus((f) => f.testid === 'step-heading', `the heading of step ${STEPS}`);
  });

  it('OK on the restored notice keeps focus on the step', async () => {
    await page.goto(page.url().replace(/\?.*$/, '') + '?step=1');
    await onStep(1);
    await page.getByTestId('form-field').first().locator('input').fill('FL-DRAFT');
    await page.getByTestId('draft-kept').first().waitFor();
    await page.reload();
    await page.getByTestId('draft-restored').waitFor();
    await onStep(1);
    await page.getByTestId('draft-restored').getByRole('button', { name: 'OK' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('draft-restored').waitFor({ state: 'hidden' });
    await expectFocus((f) => f.tag === 'input' && f.label.startsWith('Truck number'), 'the truck number field');
    await page.keyboard.press('Control+s');
    await expect.poll(savedValues).toContain('FL-DRAFT');
  });

  it('Pause by the keyboard: focus on Resume in its place; Resume: focus on Pause', async () => {
    // Before: on the page's body, and the next Tab went back to "‹ Guide" at the top.
    await page.getByTestId('session-pause').focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="session"][data-status="paused"]').waitFor();
    await expectFocus((f) => f.testid === 'session-resume', 'Resume');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="session"][data-status="started"]').waitFor();
    await expectFocus((f) => f.testid === 'session-pause', 'Pause');
  });

  it('Finish on the last step: the review, Escape back to Finish, confirmed the summary has the focus', async () => {
    await page.goto(page.url().replace(/\?.*$/, '') + `?step=${STEPS}`);
    await onStep(STEPS);
    await page.getByTestId('step-finish').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('finish-review').waitFor();
    await expectFocus((f) => f.tag === 'h2', 'the heading of the review');
    await page.keyboard.press('Escape');
    await page.getByTestId('finish-review').waitFor({ state: 'hidden' });
    await expectFocus((f) => f.testid === 'step-finish', 'the Finish button of the step bar');
    await page.keyboard.press('Enter');
    await page.getByTestId('finish-review').waitFor();
    // The sign-off (issue 28): typed as the signed-in technician, then confirmed by keyboard.
    await page.getByTestId('sign-off-name').fill(DEMO_ACCOUNTS.tech1.username);
    await page.getByTestId('review-confirm').focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="session"][data-status="complete"]').waitFor();
    await expectFocus((f) => f.tag === 'h2' && f.testid === null, 'the summary heading');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Session summary');
    await page.screenshot({ path: artifact('run-keys-finished.png') });
  });

  it('Keep mine on a field conflict: focus goes on to the line saying none is left', async () => {
    // The truck number saved here reaches the site; then the site changes it, then this laptop does.
    await page.goto(new URL('/guides/10', app.shell.url).toString());
    await page.getByTestId('workorder-input').fill('WO-KEYS-CONFLICT');
    await page.getByTestId('start-session-button').click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}/);
    await onStep(1);
    const id = (await page.getByTestId('session').getAttribute('data-session-id'))!;
    const truck = page.getByTestId('form-field').first().locator('input');
    await truck.fill('FL-BASE');
    await page.keyboard.press('Control+s');
    const session = async () => {
      const got = await app.app.services.api.getSession(id);
      if (!got.ok) throw new Error(got.error.message);
      return got.value;
    };
    // Until the site confirmed FL-BASE: Ctrl+S answers before the save is queued, and a count of 0 read
    // before it was would let the site's change below go with a revision the save then moves on (a 409).
    const confirmed = async () => (await session()).values.some((v) => v.value === 'FL-BASE' && v.site === 'sent');
    await expect.poll(confirmed, { timeout: 30_000 }).toBe(true);
    await expect.poll(async () => (await session()).pendingActions, { timeout: 30_000 }).toBe(0);
    const { entryid, guideid, guideRevisionid } = await session();
    const guide = await app.app.services.api.getGuide(guideid, guideRevisionid);
    if (!guide.ok) throw new Error(guide.error.message);
    const field = guide.value.steps[0]!.form!.fields[0]!;
    const site = demo.site();
    const { email, password } = DEMO_ACCOUNTS.tech1;
    const signIn = await fetch(`${site.apiUrl}/user/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const auth = { Authorization: `api ${((await signIn.json()) as { authToken: string }).authToken}` };
    const entry = (await (await fetch(`${site.apiUrl}/work_log/${entryid}`, { headers: auth })).json()) as {
      revisionid: number;
    };
    const put = await fetch(`${site.apiUrl}/work_log/${entryid}/stepData?revisionid=${entry.revisionid}`, {
      method: 'PUT',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ fields: { [field.fieldRevisionid]: 'FL-SITE' } }),
    });
    expect(put.status).toBeLessThan(300);
    await truck.fill('FL-MINE');
    await page.keyboard.press('Control+s');
    await expect.poll(async () => (await session()).openConflicts, { timeout: 30_000 }).toBe(1);

    await page.getByTestId('session-sync').click();
    const keep = page.getByTestId('conflict').filter({ hasText: 'WO-KEYS-CONFLICT' }).getByTestId('keep-mine');
    await keep.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('conflicts-none').waitFor();
    await expectFocus((f) => f.testid === 'conflicts-none', 'the line saying no conflict is left');
  });

  it('a step whose first field is a choice made: focus on the answer chosen, not the first option', async () => {
    // Step 3 of the tank's drain: "What did the condensate look like?" (Clear, Milky, Oily, Rusty, ...).
    // Focus on "Clear" while "Rusty" is the answer read "Clear, not checked", and Space there changed it.
    await page.goto(new URL('/library', app.shell.url).toString());
    await page.getByTestId('guide-row').filter({ hasText: 'Drain and Inspect the Air Compressor Tank' }).click();
    await page.getByTestId('workorder-input').fill('WO-KEYS-RADIO');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}/);
    await page.goto(page.url().replace(/\?.*$/, '') + '?step=3');
    await onStep(3, 6);
    const radio = async () => {
      const f = await focused();
      const value = await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value ?? '');
      return f.type === 'radio' ? value : `${f.tag} ${f.testid ?? ''}`;
    };
    await expect.poll(radio, { message: 'focus on the first option, nothing chosen yet' }).toBe('Clear');
    // Down three times chooses Rusty (arrows move and choose within a group of radio buttons).
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Control+s');
    await page.getByTestId('draft-kept').waitFor({ state: 'detached' });
    await settled();
    await page.keyboard.press('Alt+ArrowRight');
    await onStep(4, 6);
    await settled();
    await page.keyboard.press('Alt+ArrowLeft');
    await onStep(3, 6);
    await expect.poll(radio, { message: 'focus on the answer chosen' }).toBe('Rusty');
    expect((await focused()).inView).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(radio).toBe('Rusty');
    expect(await page.locator('[data-testid="step-form"] input[type="radio"]:checked').getAttribute('value')).toBe(
      'Rusty',
    );
  });

  it('ran without script errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
