import { describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { demoAppForFile } from './browser.ts';

// The walk of the morning after an upgrade: Enter on Send now in the Sync centre, offline, and the keyboard
// fell to the page's body (the button is off while it sends); a glove's tap did the same. It comes back to
// Send now while something still waits, and goes to the summary when everything has gone.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1024, height: 600 });
const FORKLIFT = 10;

const focused = (page: (typeof opened)['page']) =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

describe('Send now by keyboard', () => {
  it('keeps the keyboard on Send now while work waits, and on the summary once it has all gone', async () => {
    const { app, page, pageErrors } = opened;
    demo.setSchedule(() => ({ kind: 'reset' }));
    unwrap(await app.app.services.api.startSession({ guideid: FORKLIFT, workorderid: 'WO-SEND-NOW' }));
    await page.goto(new URL('/sync', app.shell.url).toString());
    const send = page.getByTestId('outbox-send-now');
    await expect.poll(() => send.isEnabled(), { timeout: 15_000 }).toBe(true);
    await send.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => send.isEnabled(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => focused(page)).toBe('outbox-send-now');

    demo.setSchedule(null);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('outbox-summary').textContent(), { timeout: 15_000 })
      .toContain('Everything you did has reached the site.');
    await expect.poll(() => focused(page)).toBe('outbox-summary');
    expect(pageErrors).toEqual([]);
  });
});
