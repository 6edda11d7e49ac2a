import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { artifact, openDemoApp, syncDemoWorkshop, type startApp } from './browser.ts';
import { focusedOn, tabTo } from './focus.ts';

// The top bar at a small laptop's 1024x600, where it is one row without the brand (AppTopBar.vue), by
// keyboard: from the window's top Tab reaches each section, Scan and the status chip in the bar's order,
// each ringed and in view, on that one row with either text size (with Larger text Scan shows as its
// icon there), and Enter opens the section.
const demo = capturingDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  ({ browser, app, page } = await openDemoApp(demo, { width: 1024, height: 600 }, pageErrors));
  await syncDemoWorkshop(page, app.shell.url);
  await page.getByTestId('guide-row').first().waitFor();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const IN_ORDER = ['nav-library', 'nav-my-guides', 'nav-search', 'nav-sessions', 'nav-quizzes', 'nav-sync', 'scan-open'];

async function walkTheBar(size: string): Promise<void> {
  await page.getByTestId('nav-library').click();
  await page.getByTestId('guide-row').first().waitFor();
  // From the window's top, as after opening it: the document itself holds the focus.
  await page.evaluate(() => {
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute('tabindex');
  });
  await tabTo(page, (f) => f.testid === 'nav-library', 3);
  const bar = (await page.locator('header.top-bar').boundingBox())!;
  const middle = async () => {
    const box = (await page.locator(':focus').boundingBox())!;
    return box.y + box.height / 2;
  };
  const row = await middle();
  const stops: string[] = ['nav-library'];
  for (const _ of IN_ORDER.slice(1).concat('status-chip')) {
    await page.keyboard.press('Tab');
    const now = await focusedOn(page);
    expect(now.ringed, `${size}: focus ring on "${now.text}"`).toBe(true);
    expect(now.inView, `${size}: "${now.text}" in view`).toBe(true);
    const at = await middle();
    expect(at, `${size}: "${now.text}" in the top bar`).toBeLessThan(bar.y + bar.height);
    expect(Math.abs(at - row), `${size}: "${now.text}" on the sections' row`).toBeLessThan(8);
    stops.push(now.testid ?? now.text);
  }
  expect(stops).toEqual([...IN_ORDER, 'status-chip']);
  await page.screenshot({ path: artifact(`top-bar-keyboard-${size}.png`) });
  // Back to Sessions by Shift+Tab, and Enter opens it.
  for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+Tab');
  expect((await focusedOn(page)).testid).toBe('nav-sessions');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/sessions$/);
}

describe('the top bar at 1024x600 by keyboard', () => {
  it('reaches each section, Scan and the chip on one row, ringed and in view, and Enter opens one', async () => {
    await walkTheBar('standard');
    await page.getByTestId('text-size').click();
    await expect.poll(() => page.getByTestId('text-size').getAttribute('aria-pressed')).toBe('true');
    await walkTheBar('larger-text');
    expect(pageErrors).toEqual([]);
  });
});
