import { describe, expect, it } from 'vitest';
import { PASS } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { guideWithForms } from '../helpers/worklog.ts';
import { artifact, demoAppForFile, sendNowUnlessGone } from './browser.ts';

// The site back after a day away: a change being sent again said "Sending…" and, under it, the last try's
// "… does not answer just now: this computer works from what it keeps" (a walk of this stop, as the outbox
// drained). The words of a try that is over go while a new one is out; they stay while it waits.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 });

describe('a change sent again after the site was away', () => {
  it("says it is being sent, not the last try's failure", async () => {
    const { app, page } = opened;
    const { api } = app.app.services;
    const { guide } = await guideWithForms(api);
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
    // The site answers again, its work-log answers slow: the pause is out for a while.
    demo.setSchedule(({ path }) => (path.includes('/work_log') ? { kind: 'delay', ms: 10_000 } : PASS));
    await sendNowUnlessGone(page);
    // Out for 10 s: told within them however loaded the machine (CI saw the row gone, never read in flight, at 4 s).
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 9_000 }).toBe('in_flight');
    expect(await row.locator('.action-state').textContent()).toBe('Sending…');
    expect(await row.getByTestId('outbox-action-error').count(), "the last try's failure, beside Sending…").toBe(0);
    await page.screenshot({ path: artifact('outbox-sending-words-1366x768.png') });
    await expect.poll(async () => unwrap(await api.getSession(session.id)).pendingActions, { timeout: 30_000 }).toBe(0);
    demo.setSchedule(null);
  });
});
