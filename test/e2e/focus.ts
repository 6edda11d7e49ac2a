import type { Page } from 'playwright-core';
import { expect } from 'vitest';

// Where the keyboard's focus is, and Tab pressed until it reaches a control: what a technician who works
// by keyboard meets (every stop shows its ring, and the control reached is scrolled into view).

export interface Focused {
  tag: string;
  text: string;
  testid: string | null;
  name: string | null;
  /**
   * Whether the app's focus ring is drawn: an outline of 2 px or more, or a box shadow. Chromium's own ring
   * (`auto`, 1 px) is thin beside the app's 3 px one, easy to lose on a workshop screen: not counted.
   */
  ringed: boolean;
  inView: boolean;
  /** The test id of the nearest part of the screen around it that has one (a panel, a dialog). */
  within: string | null;
}

export const focusedOn = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body)
      return { tag: 'body', text: '', testid: null, name: null, ringed: false, inView: false, within: null };
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return {
      tag: el.tagName.toLowerCase(),
      // A checkbox or a field says nothing itself: its label does.
      text: ((el as HTMLInputElement).labels?.[0] ?? el).textContent?.replace(/\s+/g, ' ').trim() ?? '',
      testid: el.getAttribute('data-testid'),
      name: el.getAttribute('name') ?? el.getAttribute('id') ?? el.getAttribute('aria-label'),
      ringed: (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) || style.boxShadow !== 'none',
      inView: box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth,
      within: el.parentElement?.closest('[data-testid]')?.getAttribute('data-testid') ?? null,
    };
  });

/** Presses Tab until `wanted` holds for the focused element (at most `max` times); every stop shows its ring. */
export async function tabTo(page: Page, wanted: (f: Focused) => boolean, max = 30): Promise<number> {
  for (let presses = 1; presses <= max; presses++) {
    await page.keyboard.press('Tab');
    const now = await focusedOn(page);
    // Past the last control Tab leaves the page for a moment (the browser's own UI) before it wraps.
    if (now.tag === 'body') continue;
    expect(now.ringed, `focus ring on ${now.tag} "${now.text.slice(0, 40)}"`).toBe(true);
    if (wanted(now)) {
      expect(now.inView, `${now.tag} "${now.text.slice(0, 40)}" scrolled into view`).toBe(true);
      return presses;
    }
  }
  throw new Error(`not reached with ${max} Tabs; focus is on ${JSON.stringify(await focusedOn(page))}`);
}
