import type { Page } from 'playwright-core';

let clock = Date.now() / 1000;

/**
 * What a USB scanner does: the code's keys 3 ms apart, then Enter. Their times are given to Chromium (a busy
 * test machine spaced Playwright's own keys by more than a scanner's, and a code's first key fell out, or its
 * Enter came at a person's pace). `gapMs` as a list: a person's keys, each its own time after the one before
 * (the Enter's last).
 */
export async function scanKeys(
  page: Page,
  code: string,
  { gapMs = 3 as number | readonly number[], enter = true } = {},
): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  clock = Math.max(clock + 1, Date.now() / 1000);
  let pressed = 0;
  const press = async (key: string, text: string, extra: Record<string, unknown> = {}) => {
    clock += (typeof gapMs === 'number' ? gapMs : (gapMs[pressed++] ?? 3)) / 1000;
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key, text, timestamp: clock, ...extra });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key, timestamp: clock, ...extra });
  };
  for (const char of code) await press(char, char);
  if (enter) await press('Enter', '\r', { code: 'Enter', windowsVirtualKeyCode: 13 });
  await cdp.detach();
}
