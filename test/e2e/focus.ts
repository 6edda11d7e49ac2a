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
  /**
   * The contrast of the ring's colour against what it is drawn on (the first opaque background around the
   * control): at least 3:1 to be seen (WCAG 1.4.11). A pale ring on white was 1.9:1. Null without an outline.
   */
  ringContrast: number | null;
  inView: boolean;
  /** The test id of the nearest part of the screen around it that has one (a panel, a dialog). */
  within: string | null;
}

export const focusedOn = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body)
      return {
        tag: 'body',
        text: '',
        testid: null,
        name: null,
        ringed: false,
        ringContrast: null,
        inView: false,
        within: null,
      };
    // A control hidden to the eye (1 px, clipped: SurveyJS's radios, check boxes and switch) shows its focus on
    // what stands for it in its label: the ring is looked for there. On the hidden control it counted, unseen.
    const own = el.getBoundingClientRect();
    const hidden = own.width <= 2 || own.height <= 2;
    const holder = hidden ? (el.closest('label') ?? el.parentElement ?? el) : el;
    const drawn = (at: Element): boolean => {
      const look = getComputedStyle(at);
      return look.outlineStyle !== 'none' && parseFloat(look.outlineWidth) >= 2;
    };
    const shown = hidden
      ? ([holder, ...holder.querySelectorAll('*')].find((at) => at !== el && drawn(at)) ?? null)
      : el;
    const style = getComputedStyle(shown ?? el);
    const rgb = (colour: string): number[] => colour.match(/[\d.]+/g)!.map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const linear = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
    };
    const behind = (() => {
      // The outline is drawn around the control (an inset one on it): the background it sits on.
      const inset = parseFloat(style.outlineOffset) < 0;
      const ringed = shown ?? el;
      for (let at: Element | null = inset ? ringed : ringed.parentElement; at; at = at.parentElement) {
        const parts = rgb(getComputedStyle(at).backgroundColor);
        if (parts.length === 3 || parts[3] === 1) return parts;
      }
      return [255, 255, 255];
    })();
    const outlined = shown !== null && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    const [ring, ground] = outlined ? [luminance(rgb(style.outlineColor)), luminance(behind)] : [0, 0];
    const box = (hidden ? holder : el).getBoundingClientRect();
    return {
      tag: el.tagName.toLowerCase(),
      // A checkbox or a field says nothing itself: its label does.
      text: ((el as HTMLInputElement).labels?.[0] ?? el).textContent?.replace(/\s+/g, ' ').trim() ?? '',
      testid: el.getAttribute('data-testid'),
      name: el.getAttribute('name') ?? el.getAttribute('id') ?? el.getAttribute('aria-label'),
      ringed: outlined || (shown !== null && style.boxShadow !== 'none'),
      ringContrast: outlined ? (Math.max(ring, ground) + 0.05) / (Math.min(ring, ground) + 0.05) : null,
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
    if (now.ringContrast !== null)
      expect(now.ringContrast, `focus ring's contrast on ${now.tag} "${now.text.slice(0, 40)}"`).toBeGreaterThanOrEqual(
        3,
      );
    if (wanted(now)) {
      expect(now.inView, `${now.tag} "${now.text.slice(0, 40)}" scrolled into view`).toBe(true);
      return presses;
    }
  }
  throw new Error(`not reached with ${max} Tabs; focus is on ${JSON.stringify(await focusedOn(page))}`);
}
