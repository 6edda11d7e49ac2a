import { describe, expect, it } from 'vitest';
import { PASS } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { guideWithForms, sampleValue } from '../helpers/worklog.ts';
import { artifact, demoAppForFile, sendNowUnlessGone } from './browser.ts';

// The site back after a day away: a change being sent again said "Sending…" and, under it, the last try's
// "… does not answer just now: this computer works from what it keeps" (a walk of this stop, as the outbox
// drained). The words of a try that is over go while a new one is out; they stay while it waits.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 });

describe('a change sent again after the site was away', () => {
  it("says it is being sent, not the last try's failure; signing out, that it is on its way", async () => {
    const { app, page } = opened;
    const { api } = app.app.services;
    const { guide, fields } = await guideWithForms(api);
    const session = unwrap(await api.startSession({ guideid: guide.guideid, workorderid: 'WO-SENDING-WORDS' }));
    await expect.poll(async () => unwrap(await api.getSession(session.id)).pendingActions).toBe(0);
    // The site refusing for a while: a pause tried, and failed. A 503 is never forwarded (a cut connection may
    // be, after the site took the pause: the outbox then looks for it there first, a check shown as waiting).
    demo.setSchedule(() => ({ kind: 'status', status: 503, message: 'Busy for the test' }));
    unwrap(await api.transitionSession({ sessionId: session.id, transition: 'pause' }));
    await expect
      .poll(async () => unwrap(await api.getOutbox()).actions.map((a) => [a.state, a.attempts > 0, !!a.error]))
      .toEqual([['pending', true, true]]);

    await page.goto(new URL('/sync', app.shell.url).toString());
    const row = page.getByTestId('outbox-action').first();
    await row.waitFor();
    // The site answers again, its answer to the pause slow: the pause is out for a while.
    // The first write only: a read of the work log (the Sync centre's, the site's sessions) took the delay in CI,
    // and the pause went unheld.
    let held = 0;
    demo.setSchedule(({ path, method }) =>
      method !== 'GET' && path.includes('/work_log') && held++ === 0 ? { kind: 'delay', ms: 20_000 } : PASS,
    );
    await sendNowUnlessGone(page);
    // Out for 20 s: told within 12 however loaded the machine (CI saw the row gone, never read in flight, at 4 s).
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 12_000 }).toBe('in_flight');
    expect(await row.locator('.action-state').textContent()).toBe('Sending…');
    expect(await row.getByTestId('outbox-action-error').count(), "the last try's failure, beside Sending…").toBe(0);
    await page.screenshot({ path: artifact('outbox-sending-words-1366x768.png') });

    // Signing out meanwhile: the pause left under tech1's sign-in and is answered as it comes (it reached the site
    // after a walk's sign-out), so it is not promised to wait here; a value saved behind it is.
    const { field, stepid } = fields.find((f) => sampleValue(f.field) !== null)!;
    const values = [{ fieldGuid: field.fieldGuid, value: sampleValue(field) }];
    unwrap(await api.saveStepData({ sessionId: session.id, stepid, values }));
    await page.locator('footer.status-bar').getByTestId('sign-out').click();
    await page.getByTestId('signout-dialog').waitFor();
    const said = async (id: string) => (await page.getByTestId(id).textContent())?.replace(/\s+/g, ' ').trim();
    expect(await said('signout-what')).toBe(
      '1 change of yours has not reached the site yet, and 1 more is on the way to the site now.',
    );
    expect(await said('signout-then')).toBe(
      'If you sign out, it stays on this computer under your name: nobody else can see it or send it. It is sent ' +
        'the next time you sign in here. What is on the way reaches the site if the site answers; if it does not, ' +
        'it too waits here for you to sign in again.',
    );
    await page.screenshot({ path: artifact('outbox-sending-words-sign-out-1366x768.png') });
    // Both land while the question is open (a walk read a bare "." there): it says so.
    await expect.poll(async () => unwrap(await api.getSession(session.id)).pendingActions, { timeout: 45_000 }).toBe(0);
    await expect.poll(() => said('signout-what')).toBe('Everything of yours has reached the site now.');
    expect(await said('sign-out-title-text')).toBe('Sign out?');
    expect(await said('signout-then')).toBe('');
    await page.getByTestId('signout-cancel').click();
    demo.setSchedule(null);
  });
});
