import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { artifact, connectAndSyncDemo, openDemoApp, type startApp } from './browser.ts';
import { measureInPage, MIN_SESSION_TARGET_PX, MIN_TARGET_PX, MIN_TEXT_PX } from './screen-checks.ts';

// The bars around every screen, at a laptop's 1366×768 and a small one's 1024×600 with Larger text: the
// top bar one row however long the status chip's words ("Synced 25 minutes ago" after a morning's break),
// and Sign out beside the technician's name in the status bar, where it wrapped alone onto a second row
// of the top bar (52 px of every screen).
const demo = capturingDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  ({ browser, app, page } = await openDemoApp(demo, { width: 1366, height: 768 }, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const bars = () =>
  page.evaluate(measureInPage, {
    minTarget: MIN_TARGET_PX,
    minSessionTarget: MIN_SESSION_TARGET_PX,
    minText: MIN_TEXT_PX,
  });

describe('the bars at 1366x768 and 1024x600 with Larger text', () => {
  it('keep the top bar one row after 25 minutes away, Sign out in the status bar', async () => {
    // The page's clock, not the app's: the chip's "ago" is the page's now against the last sync's time.
    await page.clock.install();
    await connectAndSyncDemo(page, app.shell.url);
    await page.getByTestId('nav-library').click();
    await page.getByTestId('guide-row').first().waitFor();
    await page.getByTestId('text-size').click();
    await expect.poll(() => page.getByTestId('text-size').getAttribute('aria-pressed')).toBe('true');
    await page.clock.fastForward('25:00');
    await expect.poll(() => page.getByTestId('status-chip').textContent()).toMatch(/Synced 25 minutes ago/);
    await page.screenshot({ path: artifact('top-bar-larger-text-1366.png') });
    expect((await bars()).bars).toEqual([]);
    // A small laptop's 1024×600: one row too (the chip alone on a second was 52 px of its 600), Scan as
    // its icon with its name kept.
    await page.setViewportSize({ width: 1024, height: 600 });
    await page.screenshot({ path: artifact('top-bar-larger-text-1024.png') });
    expect((await bars()).bars).toEqual([]);
    expect(await page.getByRole('button', { name: 'Scan' }).isVisible()).toBe(true);
    await page.setViewportSize({ width: 1366, height: 768 });
    // Sign out sits with the technician in the status bar, and signs out from there.
    const signOut = page.locator('footer.status-bar').getByTestId('sign-out');
    expect(await page.locator('header.top-bar').getByTestId('sign-out').count()).toBe(0);
    await signOut.click();
    await page.waitForURL(/\/switch$/);
    expect(pageErrors).toEqual([]);
  });
});
