import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcPath } from '../../electron/contract.ts';
import { always, PASS } from '../fault/proxy.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, connectAndSyncDemo, openDemoApp, type startApp } from './browser.ts';

// The web shell answers a call on one connection and tells its events on another: an answer read before
// an event can reach the page after it. Taken then, the status chip said what was over for good: "Syncing
// 100%" after the sync had ended (the sync centre reads the state at each new phase), until the next sync.
// Here the answers read while the sync runs are held until its end has been shown, as a busy core's came.
const demo = proxiedDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  ({ browser, app, page } = await openDemoApp(demo, { width: 1366, height: 768 }, pageErrors));
  await connectAndSyncDemo(page, app.shell.url);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/**
 * The first answer of `method` whose value `holds` is read in the core at once and reaches the page only at
 * `deliver` (as behind a busy core's other work); `deliver` resolves once the page has drawn it.
 */
function answerLate(method: string, holds: (value: unknown) => boolean) {
  const { services } = app.app;
  const invoke = services.invoke.bind(services);
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let [asked, delivered] = [false, false];
  services.invoke = async (name, args) => {
    const answer = await invoke(name, args);
    if (name !== method || asked || !answer.ok || !holds(answer.value)) return answer;
    asked = true;
    await held;
    delivered = true;
    return answer;
  };
  return {
    asked: () => asked,
    deliver: async () => {
      expect(asked).toBe(true);
      release();
      await expect.poll(() => delivered).toBe(true);
      services.invoke = invoke;
      // An answer that has left is read and drawn within a few frames: what shows is looked at after them.
      await page.evaluate(
        () => new Promise((resolve) => setTimeout(() => requestAnimationFrame(() => setTimeout(resolve, 50)), 200)),
      );
    },
  };
}

describe('answers read before an event, reaching the page after it', () => {
  it('do not bring back a sync that has ended', async () => {
    const chip = page.getByTestId('status-chip');
    await expect.poll(() => chip.textContent()).toMatch(/^Synced /);
    // The first read of the running sync's state is answered late.
    const late = answerLate('getSyncState', (state) => (state as { running?: boolean }).running === true);
    // The site slow to answer, so that the sync runs through its phases while the page reads its state.
    demo.setSchedule((request) => (request.path.startsWith('/api/2.0/') ? { kind: 'delay', ms: 300 } : PASS));
    const ended = page.waitForResponse((response) => response.url().endsWith(rpcPath('syncNow')));
    await page.getByTestId('sync-now').click();
    await ended;
    demo.setSchedule(null);
    await expect.poll(() => chip.textContent()).toMatch(/^Synced /);
    await late.deliver();
    await page.screenshot({ path: artifact('late-answers-sync-ended.png') });
    expect(await chip.textContent()).toMatch(/^Synced /);
    expect(pageErrors).toEqual([]);
  });

  it('do not say the site answers after the page was told it does not', async () => {
    // The window opens (a reload here) and reads the app's status; its answer comes late, after the site
    // has stopped answering and the page was told so. Taken then, the chip said "Synced just now" while the
    // site was away, until the network changed again.
    const late = answerLate('getStatus', () => true);
    const chip = page.getByTestId('status-chip');
    await page.reload();
    await expect.poll(() => late.asked()).toBe(true);
    demo.setSchedule(always({ kind: 'reset' }));
    await expect.poll(() => chip.textContent(), { timeout: 15_000 }).toMatch(/^Offline/);
    await late.deliver();
    await page.screenshot({ path: artifact('late-answers-offline.png') });
    expect(await chip.textContent()).toMatch(/^Offline/);
    demo.setSchedule(null);
    await expect.poll(() => chip.textContent(), { timeout: 15_000 }).toMatch(/^Synced /);
    expect(pageErrors).toEqual([]);
  });
});
