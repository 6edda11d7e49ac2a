import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { appPage, artifact, demoAppForFile } from './browser.ts';
import { axeViolations } from './screen-checks.ts';

// A technician with poor sight runs the browser (or the system) at 200 %: 1366x768 is then 683x384 CSS
// pixels. Found by a walk: with a session open, the library's list was squeezed to 2 px under the session's
// banner and the filters, no guide in it and none reachable; in run mode the fixed header and step bar left
// the step 145 px, and Next put the focus on a field under the step bar.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 });
let page: Page;
let sessionId: string;

beforeAll(async () => {
  const { app, browser } = opened;
  page = await appPage(browser, app.shell, { width: 683, height: 384 }, 2);
  sessionId = unwrap(await app.app.services.api.startSession({ guideid: 3, workorderid: 'WO-ZOOM-200' })).id;
});
afterAll(async () => {
  await page?.context().close();
});

const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!;

describe('the browser zoomed to 200 %', () => {
  it('the library with a session open still lists the guides, a scroll away at most', async () => {
    await page.goto(opened.app.shell.url);
    await page.getByTestId('open-session-banner').waitFor();
    const row = page.getByTestId('guide-row').first();
    await row.waitFor({ state: 'attached' });
    expect((await box('[data-testid="guide-list"]')).height).toBeGreaterThanOrEqual(150);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact('browser-zoom-200-library.png') });
    const title = (await row.textContent())!;
    await row.click();
    await page.getByTestId('guide').waitFor();
    expect(title.length).toBeGreaterThan(0);
  });

  it('run mode gives the step the window less the step bar, and Next puts the focus above the bar', async () => {
    await page.goto(new URL(`/sessions/${sessionId}?step=3`, opened.app.shell.url).toString());
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    const [pane, bar] = [await box('.session-scroll'), await box('[data-testid="session-run-bar"]')];
    expect(pane.height, 'the step pane: the window less the step bar').toBeGreaterThanOrEqual(384 - bar.height - 8);
    // The header is in the pane, whole: its title not cut.
    const cut = await page
      .locator('.session-scroll .session-guide')
      .evaluate((title) => title.scrollWidth > title.clientWidth + 1);
    expect(cut).toBe(false);

    await page.getByTestId('step-next').focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="step-nav-4"][aria-current="step"]').waitFor({ state: 'attached' });
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[data-testid="step-form"]') !== null))
      .toBe(true);
    const focused = await page.evaluate(() => {
      const rect = document.activeElement!.getBoundingClientRect();
      return { top: rect.top, bottom: rect.bottom };
    });
    const barNow = await box('[data-testid="session-run-bar"]');
    await page.screenshot({ path: artifact('browser-zoom-200-run-next.png') });
    expect(focused.top).toBeGreaterThanOrEqual(0);
    expect(focused.bottom, 'the focused field above the step bar').toBeLessThanOrEqual(barNow.y + 1);
  });

  it('opens on the step, its video sized to the room under the header, and a resize keeps the keyboard', async () => {
    await page.goto(new URL(`/sessions/${sessionId}?step=2`, opened.app.shell.url).toString());
    await page.locator('[data-testid="step-nav-2"][aria-current="step"]').waitFor({ state: 'attached' });
    const video = page.locator('[data-testid="session-step"] [data-testid="step-video"]');
    await video.waitFor();
    const fits = () =>
      page.evaluate(() => {
        const bar = document.querySelector('[data-testid="session-run-bar"]')!.getBoundingClientRect();
        const rect = document.querySelector('[data-testid="session-step"] [data-testid="step-video"]')!;
        const box = rect.getBoundingClientRect();
        return { height: Math.round(box.height), whole: box.top >= 0 && box.bottom <= bar.top + 1 };
      });
    // It was the 136x102 thumbnail (its player kept only ▶ and ⋮), and opened under the header, below the fold.
    await expect.poll(async () => (await fits()).height).toBeGreaterThanOrEqual(170);
    const heading = await box('[data-testid="session-step"] [data-testid="step-heading"]');
    expect(heading.y, 'the step heading at the top of the pane').toBeLessThan(60);
    await page.screenshot({ path: artifact('browser-zoom-200-video.png') });

    // The header goes back above the step as the window grows past 480 px: the keyboard stays on Pause.
    await page.locator('.session-scroll').evaluate((pane) => pane.scrollTo({ top: 0 }));
    await page.getByTestId('session-pause').focus();
    await page.setViewportSize({ width: 683, height: 520 });
    await expect.poll(() => page.locator('.session-scroll .session-header').count()).toBe(0);
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await expect.poll(focused).toBe('session-pause');
    await page.setViewportSize({ width: 683, height: 384 });
    await expect.poll(() => page.locator('.session-scroll .session-header').count()).toBe(1);
    await expect.poll(focused).toBe('session-pause');
  });

  it('a step without a form: axe finds nothing (scrollable-region-focusable was flagged on its pane)', async () => {
    await page.goto(new URL(`/sessions/${sessionId}?step=2`, opened.app.shell.url).toString());
    await page.locator('[data-testid="step-nav-2"][aria-current="step"]').waitFor({ state: 'attached' });
    await page.getByTestId('step-video').waitFor();
    const found = (await axeViolations(page)).map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`);
    expect(found).toEqual([]);
  });
});
