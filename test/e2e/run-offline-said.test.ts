import { describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile } from './browser.ts';
import { runHeader } from './run-mode-checks.ts';
import { checkScreen, formatProblems, VIEWPORTS } from './screen-checks.ts';

// A walk on flapping Wi-Fi: in run mode the top bar and its chip are hidden, and with the site gone the
// session's line said only "1 change unsent": Wi-Fi down could not be told from a site refusing the work
// ("Offline" was said to a screen reader alone). The line says "Offline" too, and stops saying it once the
// site answers again.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1024, height: 600 });
const FORKLIFT = 10;
const DRAIN = 3;

describe('run mode with the site gone', () => {
  it("the session's line says Offline beside what waits, and no longer once the site is back", async () => {
    const { app, page, pageErrors } = opened;
    const session = unwrap(await app.app.services.api.startSession({ guideid: FORKLIFT, workorderid: 'WO-OFF-RUN' }));
    unwrap(await app.app.services.api.flushOutbox());
    await page.goto(new URL(`/sessions/${session.id}?step=1`, app.shell.url).toString());
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    const line = page.getByTestId('session-sync');
    await expect.poll(() => line.textContent()).toBe('Saved work is on the site');
    demo.setSchedule(() => ({ kind: 'reset' }));
    // Nothing waiting: said short, so the header keeps its one row at 1024x600 with Larger text (below).
    await expect.poll(() => line.textContent(), { timeout: 15_000 }).toBe('Offline · all sent');
    await page.evaluate(() => localStorage.setItem('fieldguide.textSize', 'large'));
    await page.reload();
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    await expect.poll(() => line.textContent(), { timeout: 15_000 }).toBe('Offline · all sent');
    expect((await runHeader(page)).rows).toBe(1);
    await page.evaluate(() => localStorage.removeItem('fieldguide.textSize'));
    await page.reload();
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    await page.getByTestId('step-form').locator('input').first().fill('FL-OFF');
    await page.getByTestId('step-save').click();
    await expect.poll(() => line.textContent(), { timeout: 15_000 }).toBe('Offline · 1 unsent');
    // The header keeps its rows at every size, with Larger text too.
    await page.evaluate(() => localStorage.setItem('fieldguide.textSize', 'large'));
    await page.reload();
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    await expect.poll(() => line.textContent(), { timeout: 15_000 }).toBe('Offline · 1 unsent');
    expect((await runHeader(page)).rows).toBe(1);
    const problems = [];
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.screenshot({ path: artifact(`run-offline-said-larger-${viewport.name}.png`) });
      problems.push(...(await checkScreen(page, 'run-offline-said-larger', viewport)));
    }
    expect(formatProblems(problems)).toBe('');
    await page.evaluate(() => localStorage.removeItem('fieldguide.textSize'));
    demo.setSchedule(null);
    await expect.poll(() => line.textContent(), { timeout: 30_000 }).toBe('Saved work is on the site');
    expect(pageErrors).toEqual([]);
  });

  it('a long work order stays whole in the header, paused, at 1366x768 with Larger text', async () => {
    // "WO-2024-00123-" over "FLAP" (a walk on flapping Wi-Fi; the screen checks' split word).
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    // The drain guide's title takes two lines there, and what waits to be sent squeezes the heading's column.
    demo.setSchedule(() => ({ kind: 'reset' }));
    const session = unwrap(await api.startSession({ guideid: DRAIN, workorderid: 'WO-2024-00123-FLAP' }));
    unwrap(await api.transitionSession({ sessionId: session.id, transition: 'pause' }));
    await page.evaluate(() => localStorage.setItem('fieldguide.textSize', 'large'));
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(new URL(`/sessions/${session.id}?step=1`, app.shell.url).toString());
    await page.locator('[data-testid="session"][data-status="paused"]').waitFor();
    // One line: not as tall as two lines of its text.
    const tall = await page
      .getByTestId('session-workorder')
      .evaluate((el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).fontSize));
    await page.screenshot({ path: artifact('run-long-workorder-1366x768-larger.png') });
    expect(tall).toBeLessThan(2);
    const viewport = VIEWPORTS.find((v) => v.width === 1366)!;
    expect(formatProblems(await checkScreen(page, 'run-long-workorder-larger', viewport))).toBe('');
    await page.evaluate(() => localStorage.removeItem('fieldguide.textSize'));
    demo.setSchedule(null);
    expect(pageErrors).toEqual([]);
  });
});
