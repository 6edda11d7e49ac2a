import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkSession } from '../../electron/contract.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { api, signIn } from '../server/helpers.ts';
import { officeSaves } from '../helpers/office-save.ts';
import { artifact, connectAndSyncDemo, openDemoApp, type startApp } from './browser.ts';
import { checkScreen, formatProblems, VIEWPORTS } from './screen-checks.ts';
import { switchTo } from './switch-technician.ts';

// Typed in a running session and never saved, then an admin cancels the entry on the site; the technician's
// Pause is answered "cancelled" and the session becomes its summary. The typing sat in a disabled field, and
// after a reload it was shown nowhere: now it is listed on the session, to copy, and discarded only when asked.
const demo = proxiedDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
const FORKLIFT = { id: 10, title: 'Forklift Daily Pre-Shift Inspection' };
const TYPED = 'FL-TYPED-07';
let id = '';

beforeAll(async () => {
  ({ browser, app, page } = await openDemoApp(demo, { width: 1366, height: 768 }, pageErrors));
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.shell.url });
  await connectAndSyncDemo(page, app.shell.url);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const sessionOf = async (): Promise<WorkSession> => {
  const result = await app.app.services.api.getSession(id);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};
const block = () => page.getByTestId('typed-not-saved');
const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

/** The admin cancels the entry on the site, on its current revision. */
async function adminCancels(): Promise<void> {
  const admin = await signIn(demo.site(), 'admin');
  const { entryid } = await sessionOf();
  const entry = await api(demo.site(), 'GET', `/work_log/${entryid}`, { token: admin.token });
  const cancelled = await api(demo.site(), 'POST', `/work_log/${entryid}/cancel`, {
    token: admin.token,
    query: { revisionid: entry.body.revisionid },
    json: {},
  });
  expect(cancelled.status).toBe(200);
}

/** Starts a forklift session for `workorder`, waits until the site has it, and types `typed` as the truck number. */
async function startAndType(workorder: string, typed: string): Promise<void> {
  await page.getByTestId('nav-library').click();
  await page.getByTestId('guide-row').filter({ hasText: FORKLIFT.title }).first().click();
  await page.locator(`[data-testid="guide"][data-guideid="${FORKLIFT.id}"]`).waitFor();
  await page.getByTestId('workorder-input').fill(workorder);
  await page.getByTestId('start-session-button').click();
  await page.waitForURL(/\/sessions\/[0-9a-f-]{36}/);
  id = (await page.getByTestId('session').getAttribute('data-session-id'))!;
  await page.locator('[data-testid="step-nav-1"][aria-current="step"]').waitFor();
  await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
  await expect.poll(async () => (await sessionOf()).entryid ?? null, { timeout: 30_000 }).not.toBeNull();
  await page.getByTestId('form-field').filter({ hasText: 'Truck number' }).locator('input').fill(typed);
  await page.getByTestId('draft-kept').first().waitFor();
}

describe('typing a session ended on the site before it was saved', () => {
  it('is listed on the session once the Pause learns the site cancelled it, and copied', async () => {
    await startAndType('WO-TYPED-LOST', TYPED);

    await adminCancels();
    await page.getByTestId('session-pause').click();
    await page.locator('[data-testid="session"][data-status="cancelled"]').waitFor({ timeout: 30_000 });
    await block().waitFor();
    const text = (await block().textContent())!;
    expect(text).toContain('Typed here, not saved (the site ended this session before it was sent)');
    expect(text).toContain('Truck number');
    expect(text).toContain(TYPED);
    await block().getByTestId('typed-not-saved-copy').click();
    await expect.poll(() => block().getByTestId('typed-not-saved-copy').textContent()).toBe('Copied');
    expect(await clipboard()).toMatch(new RegExp(`^Step 1: .* · Truck number: ${TYPED}$`));
    // Nothing was sent of it: the site has no value for the truck.
    expect((await sessionOf()).values.filter((v) => v.value === TYPED)).toEqual([]);
  });

  it('is still there after a reload, in view at 1024x600 with Larger text', async () => {
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.setViewportSize({ width: 1024, height: 600 });
    await page.evaluate(() => localStorage.setItem('fieldguide.textSize', 'large'));
    await page.reload();
    await page.getByTestId('session-summary').waitFor();
    // As words on the page, not only in a disabled field's value (where it was, until a reload lost even that).
    await expect.poll(() => page.locator('body').innerText()).toContain(TYPED);
    await block().waitFor();
    const inView = await block()
      .getByRole('heading')
      .evaluate((h) => {
        const box = h.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      });
    expect(inView).toBe(true);
    await page.screenshot({ path: artifact('typed-not-saved-1024x600-larger.png') });
    await block().getByTestId('typed-not-saved-copy').scrollIntoViewIfNeeded();
    await block().getByTestId('typed-not-saved-copy').click();
    await expect.poll(clipboard).toContain(`Truck number: ${TYPED}`);
    const problems = await checkScreen(page, 'typed-not-saved-larger', VIEWPORTS[1]);
    await page.evaluate(() => localStorage.removeItem('fieldguide.textSize'));
    await page.setViewportSize({ width: 1366, height: 768 });
    expect(formatProblems(problems)).toBe('');
  });

  it('is not shown to another technician on this computer', async () => {
    await switchTo(page, 'tech2');
    await page.goto(new URL(`/sessions/${id}`, app.shell.url).toString());
    await page.locator('[data-testid="session"], [data-testid="session-error"]').first().waitFor();
    expect(await block().count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toContain(TYPED);
    await page.screenshot({ path: artifact('typed-not-saved-other-technician.png') });
    await switchTo(page, 'tech1');
    await page.goto(new URL(`/sessions/${id}`, app.shell.url).toString());
    await block().waitFor();
  });

  it('is discarded only once the technician says so', async () => {
    await page.reload();
    await block().getByTestId('typed-not-saved-discard').click();
    // Asked first, the keyboard on the answer; Keep it keeps it.
    expect(await block().textContent()).toContain('Discard what you typed here?');
    await expect.poll(focused).toBe('typed-not-saved-discard-confirm');
    await block().getByTestId('typed-not-saved-keep').click();
    await expect.poll(focused).toBe('typed-not-saved-discard');
    expect(await block().textContent()).toContain(TYPED);
    await block().getByTestId('typed-not-saved-discard').click();
    await block().getByTestId('typed-not-saved-discard-confirm').click();
    await block().waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('session-summary').waitFor();
    expect(await block().count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("the Sync centre's card of the cancel still copies what was done here", async () => {
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.getByTestId('nav-sync').click();
    const card = page.getByTestId('conflict').filter({ hasText: 'WO-TYPED-LOST' });
    await card.getByTestId('copy-mine').click();
    await expect.poll(() => card.getByTestId('copy-mine').textContent()).toContain('Copied');
    expect(await clipboard()).not.toBe('');
  });

  it("learned by a sync's look, with nothing sent: the typing is listed all the same", async () => {
    // A break walk: the sync's look at running sessions (worklog/running-look.ts) ended the session with the
    // typing in the window's draft only, and the summary said "Truck number: Not answered".
    const typed = 'FL-TYPED-BY-LOOK';
    await startAndType('WO-TYPED-LOOK', typed);
    await adminCancels();
    const synced = await app.app.services.api.syncNow();
    expect(synced.ok).toBe(true);
    await page.locator('[data-testid="session"][data-status="cancelled"]').waitFor({ timeout: 30_000 });
    await block().waitFor();
    expect(await block().textContent()).toContain(typed);
    expect((await sessionOf()).values.filter((v) => v.value === typed)).toEqual([]);
  });

  it('saved over on another computer, then ended on the site: the field does not offer Save', async () => {
    // The field said "since you typed, another computer or the site saved FL-THERE: Save replaces it" in a session
    // the site had cancelled: read-only, with no Save (a helper's walk).
    const typed = 'FL-TYPED-UNDER';
    await startAndType('WO-TYPED-UNDER', typed);
    const guide = await app.app.services.api.getGuide(FORKLIFT.id);
    if (!guide.ok) throw new Error(guide.error.message);
    const step = guide.value.steps.find((s) => s.form?.fields.some((f) => f.label === 'Truck number'))!;
    const truck = {
      fieldGuid: step.form!.fields.find((f) => f.label === 'Truck number')!.fieldGuid,
      stepid: step.stepid,
    };
    const { entryid } = await sessionOf();
    await officeSaves(demo.site(), { entryid: entryid!, guideid: FORKLIFT.id }, truck, 'FL-THERE', 'tech1');
    await adminCancels();
    expect((await app.app.services.api.syncNow()).ok).toBe(true);
    await page.locator('[data-testid="session"][data-status="cancelled"]').waitFor({ timeout: 30_000 });
    await block().waitFor();
    expect(await block().textContent()).toContain(typed);
    expect(await page.getByTestId('draft-changed-under').count()).toBe(0);
    expect(await page.getByTestId('session-step').textContent()).not.toContain('Save replaces it');
  });
});
