import { describe, expect, it } from 'vitest';
import { rpcPath, type WorkSession } from '../../electron/contract.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile, withAnswersHeld } from './browser.ts';
import { scanKeys } from './scanner-burst.ts';

// A walk's scanning day with a USB scanner (a keyboard that types a code in a burst, then Enter): the
// second read of a work order's label went into the field the new session had just focused and on to the
// site joined to the next code; its Enter after a Pause pressed the focused Resume; on the library, and with
// the scanner's own dialog open, a scanned guide's code did nothing or closed the dialog, lost.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 });
const FORKLIFT = { id: 10, title: 'Forklift Daily Pre-Shift Inspection' };

const scan = (code: string, options?: Parameters<typeof scanKeys>[2]) => scanKeys(opened.page, code, options);
const sessionsOf = async (workorderid: string): Promise<WorkSession[]> =>
  unwrap(await opened.app.app.services.api.listSessions({ guideid: FORKLIFT.id })).filter(
    (session) => session.workorderid === workorderid,
  );

/** The forklift guide's code as printed: its page on the site. */
async function printedCode(): Promise<string> {
  const site = unwrap(await opened.app.app.services.api.getStatus()).site!.url.replace(/\/$/, '');
  return `${site}/Guide/Forklift+Daily+Pre-Shift+Inspection/${FORKLIFT.id}`;
}

/**
 * Scans `code` (a guide's) with the category tree held, and while it is looked up (said so) does what the
 * technician did next; then lets the answer come and waits until the guide it names has been asked for and a
 * generous moment more, for a page it would wrongly open.
 */
async function lateAnswerAfter(code: string, next: () => Promise<void>): Promise<void> {
  const { page } = opened;
  const kept = page.waitForResponse(
    (response) =>
      response.url().endsWith(rpcPath('getGuideSummary')) &&
      response.request().postData() === JSON.stringify({ args: [FORKLIFT.id] }),
  );
  await withAnswersHeld(page, 'getCategories', 'while acting', async () => {
    await scan(code);
    await page.getByTestId('scan-looking').getByText('Looking up the code', { exact: false }).waitFor();
    await next();
  });
  await kept;
  await page.waitForTimeout(500);
}

describe('a USB scanner types where the keyboard is', () => {
  let sessionId = '';
  it("a label read twice starts one session; the second read is not left in the session's first field", async () => {
    const { app, page } = opened;
    await page.goto(new URL(`/guides/${FORKLIFT.id}`, app.shell.url).toString());
    await page.getByTestId('workorder-input').focus();
    await scan('WO-6611');
    await scan('WO-6611');
    await page.getByTestId('session').waitFor();
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    const first = page.getByTestId('form-field').first().locator('input, textarea').first();
    await expect.poll(() => page.getByTestId('app-notice').textContent()).toContain('read “WO-6611” twice');
    expect(await first.inputValue()).toBe('');
    // The next code, a truck's plate, goes into the field alone.
    await first.focus();
    await scan('FL-07');
    expect(await first.inputValue()).toBe('FL-07');
    const sessions = await sessionsOf('WO-6611');
    expect(sessions).toHaveLength(1);
    sessionId = sessions[0]!.id;
    await page.screenshot({ path: artifact('scanner-read-twice.png') });
  });

  it("a guide's printed code scanned into a step's field is not typed there, nor saved", async () => {
    const { page } = opened;
    const first = page.getByTestId('form-field').first().locator('input, textarea').first();
    await first.focus();
    await scan(await printedCode());
    await expect.poll(() => page.getByTestId('app-notice').textContent()).toContain('a link to a guide');
    expect(await first.inputValue()).toBe('FL-07');
    expect(page.url()).toContain(sessionId);
    const saved = unwrap(await opened.app.app.services.api.getSession(sessionId)).values.map((v) => v.value);
    expect(saved.some((value) => value?.includes('/Guide/'))).toBe(false);
  });

  it('a code scanned after Pause leaves the session paused, and says it went nowhere', async () => {
    const { page } = opened;
    await page.getByTestId('session-pause').focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="session"][data-status="paused"]').waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('session-resume');
    await scan('PN4471882');
    await expect.poll(() => page.getByTestId('app-notice').textContent()).toContain('“PN4471882” with no field chosen');
    await page.waitForTimeout(300);
    expect(await page.getByTestId('session').getAttribute('data-status')).toBe('paused');
    expect(unwrap(await opened.app.app.services.api.getSession(sessionId)).status).toBe('paused');
    await page.screenshot({ path: artifact('scanner-after-pause.png') });
    // The notice takes its room from the step, not the step bar's (Next was pushed off the window), and its
    // OK puts the keyboard back where it was.
    const bar = (await page.getByTestId('session-run-bar').boundingBox())!;
    expect(bar.y + bar.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    await page.getByTestId('app-notice').getByRole('button', { name: 'OK' }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('session-resume');
  });

  it('a code scanned with the list of keys open is said in that list, its OK within reach', async () => {
    const { page } = opened;
    await page.keyboard.press('F1');
    const help = page.getByTestId('run-help');
    await help.waitFor();
    await scan('PN5550001');
    const notice = help.getByTestId('app-notice');
    await notice.filter({ hasText: '“PN5550001” with no field chosen' }).waitFor();
    expect(await notice.textContent()).toContain('Close this window, choose the field');
    await page.screenshot({ path: artifact('scanner-in-keys-list.png') });
    await notice.getByRole('button', { name: 'OK' }).click();
    await page.getByTestId('app-notice').waitFor({ state: 'detached' });
    const inHelp = () => page.evaluate(() => document.activeElement?.closest('[data-testid="run-help"]') !== null);
    await expect.poll(inHelp).toBe(true);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    expect(await page.getByTestId('session').getAttribute('data-status')).toBe('paused');
  });

  it("closed by Escape, the list's notice goes above the step, and its OK puts the keyboard back", async () => {
    // A walk did as the notice says (Escape), then OK: the keyboard went to the page's body, not where the list
    // had given it back.
    const { page } = opened;
    await page.getByTestId('session-resume').focus();
    await page.keyboard.press('F1');
    const help = page.getByTestId('run-help');
    await help.waitFor();
    await scan('PN5550002');
    await help.getByTestId('app-notice').filter({ hasText: 'PN5550002' }).waitFor();
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
    expect(await focused()).toBe('session-resume');
    // Over the step, its words follow: the list is closed (they still said "Close this window"). The notice
    // leaves the list at its close event, a moment after the list is hidden (read at once, a busy machine's test
    // read it still in the list).
    await help.getByTestId('app-notice').waitFor({ state: 'detached' });
    const words = await page.getByTestId('app-notice').locator('p').textContent();
    expect(words).toContain('“PN5550002” with no field chosen: it was not typed anywhere. Choose the field, then scan');
    expect(words).not.toContain('Close this window');
    await page.getByTestId('app-notice').getByRole('button', { name: 'OK' }).click();
    await page.getByTestId('app-notice').waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('session-resume');
  });

  it("a code scanned in the picture viewer is said there, in the notice's own ink", async () => {
    // It came into the viewer, white words (the viewer's) on the notice's cream: unreadable (a walk).
    const { page } = opened;
    await page.getByTestId('step-image').first().click();
    const lightbox = page.getByTestId('lightbox');
    await lightbox.waitFor();
    await scan('PN5550003');
    const words = lightbox.getByTestId('app-notice').locator('p');
    await words.filter({ hasText: 'PN5550003' }).waitFor();
    expect(await words.evaluate((p) => getComputedStyle(p).color)).not.toBe('rgb(255, 255, 255)');
    await lightbox.getByTestId('app-notice').getByRole('button', { name: 'OK' }).click();
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'hidden' });
  });

  it("on the library, with no field, a guide's code opens the guide", async () => {
    const { app, page } = opened;
    await page.goto(app.shell.url);
    await page.getByTestId('guide-row').first().waitFor();
    await page.locator('body').focus();
    await scan(await printedCode());
    await page.locator(`[data-testid="guide"][data-guideid="${FORKLIFT.id}"]`).waitFor();
  });

  it("a work order's label opens the technician's open session of it, from the library or Search", async () => {
    const { app, page } = opened;
    await page.goto(app.shell.url);
    await page.getByTestId('guide-row').first().waitFor();
    await page.locator('body').focus();
    await scan('wo-6611');
    await page.locator(`[data-testid="session"][data-session-id="${sessionId}"]`).waitFor();
    await page.goto(new URL('/search', app.shell.url).toString());
    await page.getByTestId('search-box').focus();
    await scan('WO-6611');
    await page.locator(`[data-testid="session"][data-session-id="${sessionId}"]`).waitFor();
    // A work order with no open session here is searched for, as before.
    await page.goto(new URL('/search', app.shell.url).toString());
    await page.getByTestId('search-box').focus();
    await scan('WO-NOT-HERE');
    await page.getByTestId('scan-unknown').waitFor();
  });

  /** Words typed into Search at `gapMs`, then Enter: searched for as typed, on the search page, no code said. */
  async function typedIntoSearch(words: string, gapMs: number | readonly number[]): Promise<void> {
    const { app, page } = opened;
    await page.goto(new URL('/search', app.shell.url).toString());
    await page.getByTestId('search-box').focus();
    await scan(words, { gapMs });
    await page
      .getByTestId('search-source')
      .filter({ hasText: `“${words}”` })
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/search');
    expect(await page.getByTestId('scan-unknown').count()).toBe(0);
  }

  it('a word typed into Search as quickly as a scanner, then Enter, is searched, not said as a code', async () => {
    await typedIntoSearch('belt', 30);
  });

  it('"10mm" typed by a quick hand, then Enter, is searched, not said as an unknown code', async () => {
    // A technician looking for a 10mm socket saw the scanner's words. "1" then "0" 45 ms apart, "m" 40 ms on: a
    // scanner's pace; the second "m" (the same finger again) 85 ms, the reach to Enter 70 ms: a person's.
    await typedIntoSearch('10mm', [0, 45, 40, 85, 70]);
  });

  it("a category's name typed into Search by a quick hand, then Enter, is searched, not opened", async () => {
    // The technician meant to search: the library opened on the category instead. Most keys at a scanner's pace,
    // two ("l", "t") and the Enter at a person's. A scanner's burst of the name still opens it (scan.test.ts).
    await typedIntoSearch('Forklifts', [0, 45, 40, 35, 95, 40, 45, 80, 40, 75]);
  });

  it("with the scanner's dialog open, a USB scanner's code closes it and opens the guide", async () => {
    const { app, page, pageErrors } = opened;
    await page.goto(app.shell.url);
    await page.getByTestId('guide-row').first().waitFor();
    await page.getByTestId('scan-open').click();
    await page.getByTestId('scan-dialog').waitFor();
    await scan(await printedCode());
    await page.locator(`[data-testid="guide"][data-guideid="${FORKLIFT.id}"]`).waitFor();
    expect(await page.getByTestId('scan-dialog').isVisible()).toBe(false);
    await page.screenshot({ path: artifact('scanner-in-dialog.png') });
    expect(pageErrors).toEqual([]);
  });

  it("a guide's printed code scanned into the work order's field opens the guide, and starts nothing", async () => {
    const { app, page } = opened;
    await page.goto(new URL('/guides/3', app.shell.url).toString());
    await page.getByTestId('workorder-input').focus();
    await scan(await printedCode());
    await page.locator(`[data-testid="guide"][data-guideid="${FORKLIFT.id}"]`).waitFor();
    const listed = unwrap(await app.app.services.api.listSessions({}));
    expect(listed.filter((session) => session.workorderid.includes('/Guide/'))).toEqual([]);
  });

  it("a person's quick type-ahead in a dropdown picks what they typed", async () => {
    const { app, page } = opened;
    await page.goto(app.shell.url);
    await page.getByTestId('filter-type').focus();
    // "repa", 25 ms a key: a quick person (the scanner's keys were swallowed there, and "r" chose Replacement).
    await scan('repa', { gapMs: 25, enter: false });
    expect(await page.getByTestId('filter-type').inputValue()).toBe('repair');
  });

  it("a code's late answer opens nothing once the technician typed other words or opened another guide", async () => {
    // The site slow, a guide's code was looked up for long; its answer took the technician from what they had
    // done since (other words typed in Search, another guide opened) to the guide scanned.
    const { app, page } = opened;
    const code = await printedCode();
    await page.goto(new URL('/search', app.shell.url).toString());
    await page.getByTestId('search-box').focus();
    await lateAnswerAfter(code, async () => {
      await page.keyboard.press('Control+A');
      await page.keyboard.type('belt');
      await page.getByTestId('search-source').filter({ hasText: '“belt”' }).waitFor();
    });
    expect(new URL(page.url()).pathname).toBe('/search');
    expect(await page.getByTestId('search-box').inputValue()).toBe('belt');
    // Cleared by its button (no key typed), the same.
    await page.getByTestId('search-box').fill('');
    await lateAnswerAfter(code, async () => {
      await page.getByTestId('search-clear').click();
      await page.getByTestId('search').getByText('Type a few words').waitFor();
    });
    expect(new URL(page.url()).pathname).toBe('/search');

    await page.goto(app.shell.url);
    await page.getByTestId('guide-row').first().waitFor();
    await page.locator('body').focus();
    const other = page.locator(`[data-testid="guide-row"]:not([data-guideid="${FORKLIFT.id}"])`).first();
    const otherId = await other.getAttribute('data-guideid');
    await lateAnswerAfter(code, async () => {
      await other.click();
      await page.locator(`[data-testid="guide"][data-guideid="${otherId}"]`).waitFor();
    });
    expect(new URL(page.url()).pathname).toBe(`/guides/${otherId}`);
  });

  it('a code looked up slowly, the site hanging, is said as looked up, then its answer', async () => {
    const { app, page } = opened;
    await page.goto(new URL('/search', app.shell.url).toString());
    await page.getByTestId('search-box').focus();
    demo.setSchedule(() => ({ kind: 'stall' }));
    try {
      // The lookup's answer is held until the words are seen: held a set time, a busy machine's test saw the answer.
      await withAnswersHeld(page, 'getCategories', 'while acting', async () => {
        await scan('4006381333931');
        await page.getByTestId('scan-looking').filter({ hasText: 'Looking up the code “4006381333931”…' }).waitFor();
        await page.screenshot({ path: artifact('scanner-looking-up.png') });
      });
      await page.getByTestId('scan-unknown').filter({ hasText: '“4006381333931”' }).waitFor();
      expect(await page.getByTestId('scan-looking').textContent()).toBe('');
    } finally {
      demo.setSchedule(null);
    }
    // On the library, the words come over the screen's top: the rows stay under the finger (they were pushed
    // 48 px down, and back up with the answer).
    await page.goto(app.shell.url);
    const row = page.getByTestId('guide-row').first();
    await row.waitFor();
    const before = (await row.boundingBox())!.y;
    await page.locator('body').focus();
    await withAnswersHeld(page, 'getCategories', 'while acting', async () => {
      await scan('4006381333932');
      await page.getByTestId('scan-looking').getByText('4006381333932', { exact: false }).waitFor();
      await page.screenshot({ path: artifact('scanner-looking-up-library.png') });
      expect((await row.boundingBox())!.y).toBe(before);
    });
    await page.getByTestId('scan-unknown').filter({ hasText: '“4006381333932”' }).waitFor();
  });
});
