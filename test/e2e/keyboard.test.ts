import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { artifact, openDemoApp, type startApp } from './browser.ts';
import { focusedOn, tabTo as tabToOn, type Focused } from './focus.ts';

// The keyboard alone, as a technician with a keyboard and no mouse (or a screen reader) works: connect,
// open a guide, start a session, fill a step, next step, finish. After every move the focus is where the
// work continues (the new screen's heading, the step's first field), visible, and reachable with Tab.
const demo = capturingDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  ({ browser, app, page } = await openDemoApp(demo, { width: 1366, height: 768 }, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const focused = (): Promise<Focused> => focusedOn(page);
const tabTo = (wanted: (f: Focused) => boolean, max = 30): Promise<number> => tabToOn(page, wanted, max);

async function expectFocusOn(check: (f: Focused) => boolean, what: string): Promise<void> {
  await expect.poll(async () => check(await focused()), { message: `focus on ${what}`, timeout: 10_000 }).toBe(true);
}

describe('the keyboard alone', () => {
  it('chooses how to sign in with the arrow keys, the two ways one stop of Tab', async () => {
    // A walk at 800x1280 by keyboard: "E-mail and password" and "API token" were two stops of Tab, and the arrows
    // did not move between them (radios without a name are a group each).
    await page.goto(new URL('/connect', app.shell.url).toString());
    const ways = page.getByRole('radiogroup', { name: 'How to sign in' }).getByRole('radio');
    const isFocused = (n: number) => ways.nth(n).evaluate((el) => el === document.activeElement);
    await ways.first().focus();
    await page.keyboard.press('ArrowDown');
    expect([await ways.nth(1).isChecked(), await isFocused(1)]).toEqual([true, true]);
    await page.keyboard.press('ArrowUp');
    expect([await ways.first().isChecked(), await isFocused(0)]).toEqual([true, true]);
    await page.keyboard.press('Tab');
    expect(await isFocused(1)).toBe(false);
  });

  it('connects to the demo workshop, and focus lands on the library heading', async () => {
    await page.goto(new URL('/connect', app.shell.url).toString());
    await page.getByTestId('connect-demo').waitFor();
    await tabTo((f) => f.testid === 'connect-demo', 10);
    await page.keyboard.press('Enter');
    await page.getByTestId('library').waitFor();
    await expectFocusOn((f) => f.tag === 'h1' && f.text === 'All guides', 'the library heading');
  });

  it("syncs from the empty library's Sync now with Enter: the keyboard stays on it, then on the heading", async () => {
    await tabTo((f) => f.testid === 'library-sync-now', 30);
    const answered = page.waitForResponse((response) => response.url().endsWith('/rpc/syncNow'), { timeout: 90_000 });
    await page.keyboard.press('Enter');
    // While it syncs: on the button, which says so (disabled, it dropped the keyboard to the page's body).
    await expectFocusOn((f) => f.testid === 'library-sync-now' && f.text === 'Syncing…', 'Sync now, syncing');
    await answered;
    // The guides have come and the button has gone with the empty library's card: the keyboard on the heading.
    await page.getByTestId('guide-row').first().waitFor();
    await expectFocusOn((f) => f.tag === 'h1' && f.text === 'All guides', 'the library heading');
  });

  it('syncs from the sync centre with Enter', async () => {
    // From the top bar: the library's heading is below it now, a list of guides after it.
    await page.getByTestId('nav-library').focus();
    await tabTo((f) => f.testid === 'nav-sync', 30);
    await page.keyboard.press('Enter');
    await expectFocusOn((f) => f.tag === 'h1' && f.text === 'Sync centre', 'the sync centre heading');
    await tabTo((f) => f.testid === 'sync-now', 10);
    const answered = page.waitForResponse((response) => response.url().endsWith('/rpc/syncNow'), { timeout: 90_000 });
    await page.keyboard.press('Enter');
    await answered;
    await page.getByTestId('sync-outcome').waitFor();
  });

  it('opens the category drawer on a narrow screen and closes it with Escape', async () => {
    await page.setViewportSize({ width: 800, height: 1280 });
    await page.getByTestId('nav-library').focus();
    await page.keyboard.press('Enter');
    await expectFocusOn((f) => f.tag === 'h1', 'the library heading');
    await page.keyboard.press('Shift+Tab');
    expect((await focused()).testid).toBe('categories-button');
    await page.keyboard.press('Enter');
    await page.getByTestId('category-drawer').waitFor();
    await page.screenshot({ path: artifact('keyboard-category-drawer.png') });
    await page.keyboard.press('Escape');
    await page.getByTestId('category-drawer').waitFor({ state: 'hidden' });
    expect((await focused()).testid).toBe('categories-button');
    await page.setViewportSize({ width: 1366, height: 768 });
  });

  it('opens a guide from the list, and focus lands on its title', async () => {
    await page.getByTestId('nav-search').focus();
    await page.keyboard.press('Enter');
    await expectFocusOn((f) => f.testid === 'search-box', 'the search box (the search screen asks for words first)');
    await page.getByTestId('nav-library').focus();
    await page.keyboard.press('Enter');
    await expectFocusOn((f) => f.tag === 'h1' && f.text === 'All guides', 'the library heading');
    await tabTo((f) => f.testid === 'guide-row' && f.text.includes('Forklift Daily Pre-Shift Inspection'), 40);
    await page.keyboard.press('Enter');
    await page.getByTestId('guide').waitFor();
    await expectFocusOn((f) => f.tag === 'h1' && f.text === 'Forklift Daily Pre-Shift Inspection', 'the guide title');
  });

  it('opens a step picture in the lightbox with Enter and closes it with Escape', async () => {
    await tabTo((f) => f.testid === 'step-image', 60);
    await page.keyboard.press('Enter');
    await page.getByTestId('lightbox').waitFor();
    // Zoomed in, then out by its button until it is fitted: Zoom out turns itself off, and the keyboard stays in
    // the view (it fell to the page's body, and + did nothing more; a walk).
    await page.getByTestId('lightbox-zoom').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Zoom out' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('button', { name: 'Zoom out' }).isDisabled()).toBe(true);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[data-testid="lightbox"]') != null))
      .toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('lightbox').waitFor({ state: 'hidden' });
    expect((await focused()).testid).toBe('step-image');
  });

  it("reaches the step's comments and the box to write one, each with the app's ring", async () => {
    // A summary and a text box had Chromium's own 1 px ring, thin beside every other control's 3 px.
    await tabTo((f) => f.tag === 'summary' && f.text.startsWith('Comments'), 10);
    const isOpen = () => page.evaluate(() => (document.activeElement!.parentElement as HTMLDetailsElement).open);
    if (!(await isOpen())) await page.keyboard.press('Enter');
    expect(await isOpen()).toBe(true);
    await tabTo((f) => f.testid === 'comment-new-text', 20);
  });

  it('starts a session, and focus lands on the first field of the first step', async () => {
    await page.getByTestId('guide').locator('h1').focus();
    await tabTo((f) => f.testid === 'workorder-input', 30);
    await page.keyboard.type('WO-KEYS-1');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}/);
    await expectFocusOn((f) => f.tag === 'input', 'the first field of step 1');
    await page.screenshot({ path: artifact('keyboard-session-step1.png') });
  });

  it('fills the step, moves on with Next step, and focus lands on the next step', async () => {
    await page.keyboard.type('FL-07');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1234');
    await tabTo((f) => f.testid === 'step-next', 10);
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="step-nav-2"][aria-current="step"]').waitFor();
    await expectFocusOn(
      (f) => f.tag === 'input' || f.tag === 'textarea' || f.tag === 'select' || f.testid === 'step-heading',
      'step 2',
    );
    const session = await app.app.services.api.getSession(
      (await page.getByTestId('session').getAttribute('data-session-id'))!,
    );
    if (!session.ok) throw new Error(session.error.message);
    expect(session.value.values.map((v) => v.value).sort()).toEqual(['1234', 'FL-07']);
  });

  it('jumps to a step from the step list; focus on its photo-or-video field keeps the top bar in view', async () => {
    await page.getByTestId('step-nav-10').focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="step-nav-10"][aria-current="step"]').waitFor();
    await expectFocusOn((f) => f.tag === 'input', 'the video field of step 10');
    // The hidden file input must not scroll the window itself: the app scrolls inside its main area.
    expect(
      await page.evaluate(() => ({
        window: window.scrollY,
        // In run mode (issue 28) the session's own header is the top bar.
        top: document.querySelector('.session-header')!.getBoundingClientRect().top,
      })),
    ).toEqual({ window: 0, top: 0 });
    await page.screenshot({ path: artifact('keyboard-video-field.png') });
  });

  it('asks before cancelling, and Escape keeps working', async () => {
    await page.getByTestId('session-cancel').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('session-keep-working').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('session-keep-working').waitFor({ state: 'hidden' });
    expect((await focused()).testid).toBe('session-cancel');
    expect(await page.getByTestId('session').getAttribute('data-status')).toBe('started');
  });

  it('finishes with the keyboard', async () => {
    await page.keyboard.press('Shift+Tab');
    expect((await focused()).testid).toBe('session-finish');
    await page.keyboard.press('Enter');
    // The review takes the focus on its heading; its confirmation is reached with Tab.
    await page.getByTestId('finish-review').waitFor();
    await expectFocusOn((f) => f.tag === 'h2', 'the heading of the Finish review');
    // The sign-off (issue 28): the technician types their name, then confirms with Enter there (it did nothing);
    // not before the name is theirs.
    // Type or draw: one group of the arrow keys, as the sign-in's ways.
    const how = await page.evaluate(() =>
      ['sign-off-typed', 'sign-off-drawn'].map((id) =>
        document.querySelector(`[data-testid="${id}"]`)?.getAttribute('name'),
      ),
    );
    expect(how[0]).toBeTruthy();
    expect(how[1]).toBe(how[0]);
    await tabTo((f) => f.testid === 'sign-off-name', 40);
    const name = DEMO_ACCOUNTS.tech1.username;
    await page.keyboard.type(name.slice(0, -1));
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('sign-off-note').textContent()).toContain('Type your name as you signed in');
    expect(await page.getByTestId('finish-review').count()).toBe(1);
    await page.keyboard.type(name.slice(-1));
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="session"][data-status="complete"]').waitFor();
  });

  it("Tab to a step's picture on the guide page keeps the step's heading and first line in view", async () => {
    // Found walking 800x1280 with Larger text: on the drain guide, Tab to step 3's picture left its heading
    // and its first line scrolled out above, the line cut in half.
    await page.setViewportSize({ width: 800, height: 1280 });
    await page.evaluate(() => localStorage.setItem('fieldguide.textSize', 'large'));
    await page.goto(new URL('/guides/3', app.shell.url).toString());
    await page.getByTestId('guide').waitFor();
    await page.locator('[data-testid="guide"] h1').focus();
    const problems: string[] = [];
    for (let picture = 0; picture < 4; picture++) {
      await tabTo((f) => f.testid === 'step-image', 40);
      const seen = await page.evaluate(() => {
        const step = document.activeElement!.closest('[data-testid="guide-step"]')!;
        const scroller = document.querySelector('.app-main')!.getBoundingClientRect();
        const box = step.getBoundingClientRect();
        const heading = step.querySelector('[data-testid="step-heading"]')!.getBoundingClientRect();
        const line = step.querySelector('li')?.getBoundingClientRect() ?? heading;
        return {
          step: step.id,
          fits: box.height <= scroller.height,
          inView: heading.top >= scroller.top - 1 && line.bottom <= scroller.bottom + 1,
        };
      });
      if (seen.fits && !seen.inView) problems.push(`${seen.step}: its heading or first line out of view`);
    }
    await page.screenshot({ path: artifact('keyboard-guide-step-picture-800x1280-larger.png') });
    await page.evaluate(() => localStorage.removeItem('fieldguide.textSize'));
    expect(problems).toEqual([]);
  });

  it('ran without script errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
