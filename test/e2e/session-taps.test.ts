import { describe, expect, it } from 'vitest';
import type { StepFormField } from '../../electron/contract.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { guideWithForms, sampleValue } from '../helpers/worklog.ts';
import { artifact, demoAppForFile, gloveDoubleTap } from './browser.ts';

// The session's own buttons, by glove and by keyboard (found walking the app at 1024x600 with Larger text):
// one gloved double tap on Cancel session cancelled the session for good (the first tap put "Yes, cancel
// this session" where Cancel had been, and the bounce pressed it), and one on Resume sent a resume and a
// pause (Pause stood where Resume had been): the work counted as pause time.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1024, height: 600 });

async function openSession(workorderid: string): Promise<string> {
  const { app, page } = opened;
  const { api } = app.app.services;
  const { guide } = await guideWithForms(api);
  const session = unwrap(await api.startSession({ guideid: guide.guideid, workorderid }));
  await page.evaluate(() => localStorage.setItem('fieldguide.textSize', 'large'));
  await page.goto(new URL(`/sessions/${session.id}`, app.shell.url).toString());
  await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
  return session.id;
}

const status = () => opened.page.getByTestId('session').getAttribute('data-status');

describe("a session's buttons, tapped twice by a glove", () => {
  it('a double tap on Cancel session asks, and cancels nothing; Enter twice keeps working', async () => {
    const { app, page } = opened;
    const id = await openSession('WO-TAP-CANCEL');
    await gloveDoubleTap(page, page.getByTestId('session-cancel'));
    await page.waitForTimeout(500);
    await page.screenshot({ path: artifact('session-taps-cancel-1024x600-larger.png') });
    expect(await status()).toBe('started');
    expect(unwrap(await app.app.services.api.getSession(id)).status).toBe('started');
    // The question stands, the keyboard on Keep working (the bounce's press had put it on "Yes, cancel this
    // session", for the next Enter to cancel).
    expect(await page.getByTestId('session-cancel').textContent()).toContain('Yes, cancel this session');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('session-keep-working');
    // A double tap on Keep working keeps working, here: its bounce went on to the session's line that took
    // its place, a link to the Sync centre.
    const at = page.url();
    await gloveDoubleTap(page, page.getByTestId('session-keep-working'));
    await page.getByTestId('session-keep-working').waitFor({ state: 'detached' });
    await page.waitForTimeout(500);
    expect(page.url()).toBe(at);
    // By keyboard, the question's focus is on Keep working: Enter twice keeps the session.
    await page.getByTestId('session-cancel').focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('session-keep-working');
    await page.keyboard.press('Enter');
    await page.getByTestId('session-keep-working').waitFor({ state: 'detached' });
    expect(await status()).toBe('started');
    // Asked, and answered with a tap after a pause: cancelled, as the technician meant.
    await page.getByTestId('session-cancel').click();
    await page.waitForTimeout(700);
    await page.getByTestId('session-cancel').click();
    await expect.poll(status).toBe('cancelled');
  });

  it('a double tap on Resume resumes once, and on Pause pauses once', async () => {
    const { app, page } = opened;
    const id = await openSession('WO-TAP-RESUME');
    await gloveDoubleTap(page, page.getByTestId('session-pause'));
    await expect.poll(status).toBe('paused');
    await page.getByTestId('session-resume').waitFor();
    await page.waitForTimeout(500);
    expect(await status()).toBe('paused');
    await gloveDoubleTap(page, page.getByTestId('session-resume'));
    await expect.poll(status).toBe('started');
    await page.waitForTimeout(500);
    expect(await status()).toBe('started');
    const session = unwrap(await app.app.services.api.getSession(id));
    expect(session.status).toBe('started');
  });
});

describe("Next by a glove's double tap", () => {
  // A walk through a long guide by glove: one tap left the keyboard on the new step, a double tap on the
  // page's body (the bounce met Next disabled while the move settled: a disabled button takes no press, so no
  // guard saw it, and the press moved the focus), and the next Tab left the page.
  it('moves one step, and the keyboard stays on the new step', async () => {
    const { app, page } = opened;
    const session = unwrap(await app.app.services.api.startSession({ guideid: 10, workorderid: 'WO-NEXT-GLOVE' }));
    await page.goto(new URL(`/sessions/${session.id}?step=2`, app.shell.url).toString());
    await page.getByTestId('session').waitFor();
    for (const to of [3, 4]) {
      await gloveDoubleTap(page, page.getByTestId('step-next'));
      await page
        .locator(`[data-testid="step-count"]`)
        .filter({ hasText: `Step ${to} of` })
        .waitFor();
      await page.waitForTimeout(700);
      expect(await page.getByTestId('step-count').textContent()).toBe(`Step ${to} of 13`);
      const focus = await page.evaluate(() => document.activeElement?.closest('[data-testid="session-step"]') !== null);
      expect(focus, `the keyboard on step ${to}`).toBe(true);
    }
  });
});

describe('the Steps drawer by keyboard', () => {
  it('opens on the current step; the arrows, Home and End go from step to step; Enter goes there', async () => {
    const { page } = opened;
    const session = unwrap(
      await opened.app.app.services.api.startSession({ guideid: 3, workorderid: 'WO-DRAWER-KEYS' }),
    );
    await page.goto(new URL(`/sessions/${session.id}?step=3`, opened.app.shell.url).toString());
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    const drawer = page.getByTestId('step-drawer');
    const focusedStep = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await page.getByTestId('step-drawer-open').focus();
    await page.keyboard.press('Enter');
    await drawer.waitFor();
    // The keyboard was on Close, and End scrolled the list away from it.
    await expect.poll(focusedStep).toBe('step-nav-3');
    await page.keyboard.press('End');
    expect(await focusedStep()).toBe('step-nav-6');
    await page.keyboard.press('ArrowDown');
    expect(await focusedStep()).toBe('step-nav-6');
    await page.keyboard.press('Home');
    expect(await focusedStep()).toBe('step-nav-1');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    expect(await focusedStep()).toBe('step-nav-2');
    await page.keyboard.press('Enter');
    await drawer.waitFor({ state: 'hidden' });
    await page.locator('[data-testid="step-nav-2"][aria-current="step"]').waitFor({ state: 'attached' });
    // Opened again, on the step now shown; Escape closes it, the keyboard back on the button that opened it.
    await page.getByTestId('step-drawer-open').focus();
    await page.keyboard.press('Enter');
    await expect.poll(focusedStep).toBe('step-nav-2');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    expect(await focusedStep()).toBe('step-drawer-open');
  });
});

// After a restart the app opens on the library; a technician who started the job again on the guide's page
// made a second session of the same work order, with no question, and the site kept the empty one open
// for good beside the first (found killing the app 40 ms after Start).
describe("run mode's dialogs, closed by a glove's double tap", () => {
  it('Help and the Steps drawer close, and the bounce presses nothing they covered', async () => {
    const { page } = opened;
    // Tank step 3: five choices under the dialogs' Close buttons at 1024x600 with Larger text.
    const session = unwrap(await opened.app.app.services.api.startSession({ guideid: 3, workorderid: 'WO-TAP-CLOSE' }));
    await page.evaluate(() => localStorage.setItem('fieldguide.textSize', 'large'));
    const url = new URL(`/sessions/${session.id}?step=3`, opened.app.shell.url).toString();
    await page.goto(url);
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    const pressed: string[] = [];
    await page.exposeFunction('pressedBeneath', (what: string) => pressed.push(what));
    await page.evaluate(() => {
      const dialogOpen = () => [...document.querySelectorAll('dialog')].some((d) => d.open);
      document.addEventListener('click', (event) => {
        const target = event.target as Element;
        if (!dialogOpen() && !target.closest('dialog')) {
          const name = target.closest('button, a, label, input')?.textContent?.trim() ?? target.tagName;
          void (window as unknown as { pressedBeneath: (what: string) => void }).pressedBeneath(name);
        }
      });
    });
    for (const [open, close] of [
      ['run-help-open', 'run-help-close'],
      ['step-drawer-open', 'step-drawer-close'],
    ] as const) {
      await page.getByTestId(open).click();
      await page.getByTestId(close).waitFor();
      await gloveDoubleTap(page, page.getByTestId(close));
      await page.getByTestId(close).waitFor({ state: 'hidden' });
      await page.waitForTimeout(300);
      expect(pressed, `${close}: a click reached the page beneath`).toEqual([]);
      expect(page.url()).toBe(url);
    }
    expect(await page.locator('input[type="radio"]:checked').count()).toBe(0);
  });

  // A walk through a 39-step guide at 800x1280: the list opened on the last step with its Close 1,970 px
  // above the window, and a tap on the dimmed page beside it did nothing.
  it('the Steps drawer closes at a tap beside it, its bounce pressing nothing; Close stays in view', async () => {
    const { page } = opened;
    // The forklift's 13 steps: a list longer than the window at 1024x600 with Larger text.
    const session = unwrap(
      await opened.app.app.services.api.startSession({ guideid: 10, workorderid: 'WO-LONG-LIST' }),
    );
    await page.goto(new URL(`/sessions/${session.id}`, opened.app.shell.url).toString());
    await page.getByTestId('session').waitFor();
    const url = page.url();
    const drawer = page.getByTestId('step-drawer');
    await page.getByTestId('step-drawer-open').click();
    await drawer.waitFor();
    await page.keyboard.press('End');
    const close = await page.getByTestId('step-drawer-close').boundingBox();
    expect(close!.y, "Close above the window at the list's end").toBeGreaterThanOrEqual(0);
    const box = (await drawer.boundingBox())!;
    // A glove's double tap there: the tap, and its bounce 200 ms later.
    await page.mouse.click(box.x + box.width + 60, 300);
    await page.waitForTimeout(200);
    await page.mouse.down({ clickCount: 2 });
    await page.mouse.up({ clickCount: 2 });
    await drawer.waitFor({ state: 'hidden' });
    await page.waitForTimeout(300);
    expect(page.url()).toBe(url);
    expect(await page.locator('input[type="radio"]:checked').count()).toBe(0);
    // A tap inside the list, off its steps, leaves it open.
    await page.getByTestId('step-drawer-open').click();
    await drawer.getByRole('heading', { name: 'Steps' }).click();
    expect(await drawer.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
  });
});

describe('Start with a work order already open on the guide', () => {
  it('asks, goes back to the open session, and starts another only when asked to', async () => {
    const { app, page } = opened;
    const { api } = app.app.services;
    const { guide } = await guideWithForms(api);
    const first = unwrap(await api.startSession({ guideid: guide.guideid, workorderid: 'WO-AGAIN' }));
    const count = async () =>
      unwrap(await api.listSessions({ guideid: guide.guideid, ended: 0 })).filter((s) => s.workorderid === 'WO-AGAIN')
        .length;
    await page.goto(new URL(`/guides/${guide.guideid}`, app.shell.url).toString());
    await page.getByTestId('my-open-sessions').waitFor();
    await page.getByTestId('workorder-input').fill(' wo-again ');
    // A glove's double tap on Start: one question, no session.
    await gloveDoubleTap(page, page.getByTestId('start-session-button'));
    const question = page.getByTestId('start-already');
    await question.waitFor();
    expect((await question.locator('p').textContent())?.replace(/\s+/g, ' ')).toMatch(
      /^ ?Work order WO-AGAIN is open on this guide already \(in progress, started /,
    );
    await page.waitForTimeout(500);
    expect(await count()).toBe(1);
    await page.screenshot({ path: artifact('start-already-1024x600-larger.png') });
    // Wherever the bounce landed, the keyboard is not on Start another session (the next Enter made one).
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).not.toBe(
      'start-already-another',
    );
    // Escape puts the question away, the work order kept to be changed.
    await page.getByTestId('start-already-open').focus();
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('workorder-input');
    // By keyboard: Enter in the work order asks the same, with the focus on Go back to it, so a second
    // Enter opens the session that was open.
    await page.getByTestId('workorder-input').focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('start-already-open');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/sessions/${first.id}`));
    expect(await count()).toBe(1);
    // Asked to, it starts another of the same work order (a second truck under one order, say).
    await page.goBack();
    await page.getByTestId('workorder-input').fill('WO-AGAIN');
    await page.getByTestId('start-session-button').click();
    await page.getByTestId('start-already-another').click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}/);
    expect(page.url()).not.toContain(first.id);
    expect(await count()).toBe(2);
  });
});

// A glove's tap on a step in the Steps drawer closes it, and its bounce, 80 ms on, lands on the step beneath: on
// a field with a value there, it put the keyboard in that field with the value selected (the double click's own
// word selection), and the next key typed over the saved truck number. One tap, one step: the step shown, the
// keyboard where a single tap puts it.
describe("a step chosen in the Steps drawer by a glove's double tap", () => {
  it("goes to the step, and the bounce does nothing to the field under the drawer's step", async () => {
    const { app, page } = opened;
    const api = app.app.services.api;
    const typed = (f: StepFormField) => ['Text Input', 'Numeric Input', 'Text Area'].includes(f.type);
    // The hose guide: its 30 steps scroll in the drawer at 1024x600, the forklift check's among them.
    const guide = unwrap(await api.getGuide(DEMO_GUIDES.findIndex((g) => g.key === 'forklift-hose') + 1));
    const session = unwrap(await api.startSession({ guideid: guide.guideid, workorderid: 'WO-DRAWER-BOUNCE' }));
    for (const step of guide.steps)
      for (const field of step.form?.fields.filter(typed) ?? [])
        unwrap(
          await api.saveStepData({
            sessionId: session.id,
            stepid: step.stepid,
            values: [{ fieldGuid: field.fieldGuid, value: sampleValue(field)!.split('\n')[0]! }],
          }),
        );
    await page.evaluate(() => localStorage.setItem('fieldguide.textSize', 'large'));
    const url = (n: number) => new URL(`/sessions/${session.id}?step=${n}`, app.shell.url).toString();
    // A step whose typed field the drawer's button for it can be scrolled over: where the bounce will land.
    const fieldAt = async (n: number) => {
      await page.goto(url(n));
      await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
      return page
        .locator('[data-testid="step-form"] :is(input:not([type=checkbox], [type=radio], [type=file]), textarea)')
        .first()
        .boundingBox();
    };
    let chosen: { n: number; x: number; y: number; scroll: number } | null = null;
    for (let n = 2; n <= guide.steps.length && !chosen; n++) {
      if (!guide.steps[n - 1]!.form?.fields.some(typed)) continue;
      const field = await fieldAt(n);
      await page.goto(url(1));
      await page.getByTestId('step-drawer-open').click();
      const drawer = page.getByTestId('step-drawer');
      const button = (await drawer.getByTestId(`step-nav-${n}`).boundingBox())!;
      const room = await drawer.evaluate((el) => ({ top: el.scrollTop, most: el.scrollHeight - el.clientHeight }));
      const y = field!.y + field!.height / 2;
      const scroll = room.top + button.y + button.height / 2 - y;
      const x = Math.max(field!.x, button.x) + 20;
      if (scroll >= 0 && scroll <= room.most && x < Math.min(field!.x + field!.width, button.x + button.width))
        chosen = { n, x, y, scroll };
      await page.keyboard.press('Escape');
    }
    expect(chosen, 'a step whose field is under its button in the drawer').not.toBeNull();
    const { n, x, y, scroll } = chosen!;
    await page.getByTestId('step-drawer-open').click();
    await page.getByTestId('step-drawer').evaluate((el, top) => (el.scrollTop = top), scroll);
    // The tap, and its bounce 80 ms later at the same spot.
    await page.mouse.click(x, y);
    await page.waitForTimeout(80);
    await page.mouse.down({ clickCount: 2 });
    await page.mouse.up({ clickCount: 2 });
    await page
      .locator('[data-testid="step-count"]')
      .filter({ hasText: `Step ${n} of` })
      .waitFor();
    await page.waitForTimeout(700);
    await page.screenshot({ path: artifact('drawer-bounce-1024x600-larger.png') });
    const focus = await page.evaluate(() => {
      const at = document.activeElement as HTMLInputElement;
      const step = document.querySelector('[data-testid="session-step"]')!;
      const first =
        step.querySelector(
          '[data-testid="step-form"] :is(input:not([type=hidden]), select, textarea):not(:disabled)',
        ) ?? step.querySelector('[data-testid="step-heading"]');
      const selected = typeof at.selectionStart === 'number' ? at.selectionEnd! - at.selectionStart : 0;
      return { first: at === first, on: `${at.tagName} ${at.getAttribute('aria-label') ?? at.id}`, selected };
    });
    // What a single tap does: the keyboard on the step's first field, nothing selected in it to type over.
    expect(focus, `after choosing step ${n}`).toMatchObject({ first: true, selected: 0 });
  });
});

// A walk by glove at 1366x768 with Larger text: a tap on the step bar's Finish opened the review, its heading
// focused, and the bounce landed on Sign off and finish, off until the name is typed. A disabled button takes
// no press, so no guard saw it, and the press took the keyboard off the heading to the page's body: the next
// Tab began at the top of the page, not in the review.
describe("Finish by a glove's double tap", () => {
  it('opens the review with the keyboard on its heading, the bounce on its disabled button', async () => {
    const { app, page } = opened;
    const api = app.app.services.api;
    const session = unwrap(await api.startSession({ guideid: 3, workorderid: 'WO-FINISH-GLOVE' }));
    // Every field answered (the photo too): the review short, its Finish at the window's foot.
    for (const step of unwrap(await api.getGuide(3)).steps)
      for (const field of step.form?.fields ?? []) {
        const value = sampleValue(field);
        if (value !== null) {
          unwrap(
            await api.saveStepData({
              sessionId: session.id,
              stepid: step.stepid,
              values: [{ fieldGuid: field.fieldGuid, value }],
            }),
          );
        }
      }
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.evaluate(() => localStorage.setItem('fieldguide.textSize', 'large'));
    await page.goto(new URL(`/sessions/${session.id}?step=6`, app.shell.url).toString());
    await page.getByTestId('step-finish').waitFor();
    await page.waitForTimeout(300);
    const finish = (await page.getByTestId('step-finish').boundingBox())!;
    await gloveDoubleTap(page, page.getByTestId('step-finish'));
    await page.getByTestId('finish-review').waitFor();
    await page.waitForTimeout(600);
    // The bounce met the review's own Finish, disabled: where the step bar's was.
    const confirm = (await page.getByTestId('review-confirm').boundingBox())!;
    const [x, y] = [finish.x + finish.width / 2, finish.y + finish.height / 2];
    expect(x > confirm.x && x < confirm.x + confirm.width && y > confirm.y && y < confirm.y + confirm.height).toBe(
      true,
    );
    expect(await page.getByTestId('review-confirm').isDisabled()).toBe(true);
    await page.screenshot({ path: artifact('finish-glove-1366x768-larger.png') });
    const focused = await page.evaluate(() => document.activeElement?.textContent?.trim().slice(0, 40));
    await page.getByTestId('review-back').click();
    await page.setViewportSize({ width: 1024, height: 600 });
    expect(focused).toBe('Finish this session?');
  });
});
