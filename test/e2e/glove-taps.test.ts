import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile, gloveDoubleTap } from './browser.ts';

// One glove tap, one step, on the controls of a technician's first day, as a walk of this stop tapped them at
// 1024x600 with Larger text (the same at 1366x768 and 800x1280): one tap on Larger text grew the status bar
// and its bounce pressed Sign out, now under the finger; a technician's row on Switch technician opened and
// closed; Offline only, a category's arrow, a scope's category and Advanced each flipped twice. The app
// guards every control at once (taps.ts oneTapOneStep), not one control at a time.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1024, height: 600 });

/** What a glove tap on `target` changed, read by `state` before and after the bounce has landed. */
async function tapped<T>(page: Page, name: string, target: Locator, state: () => Promise<T>): Promise<[T, T]> {
  const before = await state();
  await gloveDoubleTap(page, target);
  await page.waitForTimeout(600);
  await page.screenshot({ path: artifact(`glove-taps-${name}-1024x600-larger.png`) });
  return [before, await state()];
}

describe("a glove's tap on the first day's controls", () => {
  it('Larger text grows the text and signs nobody out', async () => {
    const { app, page } = opened;
    await page.goto(app.shell.url);
    await page.evaluate(() => localStorage.setItem('fieldguide.textSize', 'normal'));
    await page.reload();
    await page.getByTestId('guide-row').first().waitFor();
    const pressed = () => page.getByTestId('text-size').getAttribute('aria-pressed');
    expect(await tapped(page, 'text-size', page.getByTestId('text-size'), pressed)).toEqual(['false', 'true']);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByTestId('switch-screen').count()).toBe(0);
    // The bounce did not put the keyboard on Sign out either: the next Enter would have signed out.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('text-size');
  });

  it("the library's Offline only and a category's arrow change once", async () => {
    const { page } = opened;
    const offline = page.getByTestId('filter-offline');
    expect(await tapped(page, 'filter-offline', offline, () => offline.isChecked())).toEqual([false, true]);
    await offline.click();
    const twisty = page.locator('button.category-twisty:visible').first();
    const [before, after] = await tapped(page, 'category-twisty', twisty, () => twisty.getAttribute('aria-expanded'));
    expect(after).not.toBe(before);
  });

  it('a category of the offline scope is ticked once (the scope left as it was)', async () => {
    const { page } = opened;
    await page.getByTestId('nav-sync').click();
    await page.getByTestId('scope-selected').check();
    const box = page.locator('.scope-categories input[type=checkbox]:not(:disabled)').first();
    await box.waitFor();
    const [before, after] = await tapped(page, 'scope-category', box.locator('xpath=..'), () => box.isChecked());
    expect(after).toBe(!before);
    await page.getByTestId('scope-all').check();
  });

  it("a technician's row on Switch technician opens", async () => {
    const { app, page } = opened;
    await page.goto(new URL('/switch', app.shell.url).toString());
    const row = page.getByTestId('technician-row').first();
    await row.waitFor();
    const pick = row.getByTestId('technician-pick');
    expect(await tapped(page, 'technician-pick', pick, () => pick.getAttribute('aria-expanded'))).toEqual([
      'false',
      'true',
    ]);
    await row.getByTestId('technician-continue').waitFor();
  });

  it('still zooms a picture on a double click of its own, and selects a word in a field', async () => {
    const { app, page } = opened;
    await page.goto(new URL('/guides/3', app.shell.url).toString());
    await page.getByTestId('step-image').first().click();
    const lightbox = page.getByTestId('lightbox');
    await lightbox.waitFor();
    const scale = () => lightbox.getByTestId('lightbox-scale').textContent();
    const fitted = await scale();
    await lightbox.getByTestId('lightbox-image').dblclick();
    await expect.poll(scale).not.toBe(fitted);
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'hidden' });
    // A glove's tap on the words of a step selects none of them (its bounce selected "No" in the summary that
    // took the Finish review's place, a walk of this stop).
    await gloveDoubleTap(page, page.getByTestId('guide-step').first().locator('li').first());
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe('');
    const workorder = page.getByTestId('workorder-input');
    await workorder.fill('north bay');
    await workorder.dblclick({ position: { x: 12, y: 12 } });
    const selected = () =>
      workorder.evaluate((input) => {
        const { value, selectionStart, selectionEnd } = input as HTMLInputElement;
        return value.slice(selectionStart ?? 0, selectionEnd ?? 0);
      });
    expect(await selected()).toBe('north');
  });
  it("a quiz's dropdown opens its list", async () => {
    const { app, page } = opened;
    // The list opened, and the bounce on its filter field (a text field, let through by the guard) shut it.
    await page.goto(app.shell.url);
    await page.getByTestId('nav-quizzes').click();
    await page.getByTestId('quiz-row').filter({ hasText: 'Forklift Pre-Shift Check' }).getByTestId('quiz-open').click();
    const dropdown = page.locator('[data-name="lp-pin"] .sd-dropdown');
    await dropdown.waitFor();
    // Scrolled to first and settled, as a technician's page is when they tap: SurveyJS shuts an open list on
    // a scroll of the page, and the scroll's event came a frame after the tap had opened it.
    await dropdown.scrollIntoViewIfNeeded();
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await gloveDoubleTap(page, dropdown);
    await page.waitForTimeout(600);
    await page.screenshot({ path: artifact('glove-taps-quiz-dropdown-1024x600-larger.png') });
    expect(await page.getByRole('option').first().isVisible()).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('a signature drawn in quick strokes keeps every stroke (each press on what draws is a stroke)', async () => {
    const { app, page } = opened;
    const session = unwrap(await app.app.services.api.startSession({ guideid: 3, workorderid: 'WO-GLOVE-SIGN' }));
    await page.goto(new URL(`/sessions/${session.id}`, app.shell.url).toString());
    await page.getByTestId('session-finish').click();
    await page.getByTestId('sign-off-drawn').check();
    const pad = page.getByTestId('sign-off-pad');
    await pad.scrollIntoViewIfNeeded();
    const box = (await pad.boundingBox())!;
    const inked = () =>
      pad.evaluate((canvas) => {
        const c = canvas as HTMLCanvasElement;
        const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
        let count = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) count++;
        return count;
      });
    const counts: number[] = [];
    // Three strokes, each begun where the last ended, at once: the press of each lands where a click just was.
    let [x, y] = [box.x + 20, box.y + box.height / 2];
    for (let stroke = 0; stroke < 3; stroke++) {
      await page.mouse.move(x, y);
      await page.mouse.down();
      x += 60;
      await page.mouse.move(x, y + (stroke % 2 ? -20 : 20), { steps: 5 });
      await page.mouse.up();
      y += stroke % 2 ? -20 : 20;
      counts.push(await inked());
    }
    expect(counts[1]!, 'the second stroke drew').toBeGreaterThan(counts[0]!);
    expect(counts[2]!, 'the third stroke drew').toBeGreaterThan(counts[1]!);
    await page.keyboard.press('Escape');
  });

  it("the connect screen's Advanced opens", async () => {
    const { app, page } = opened;
    // Signed out (nothing of theirs unsent: no question), the site's connect screen.
    await page.goto(app.shell.url);
    await page.getByTestId('sign-out').click();
    await page.getByTestId('switch-connect').click();
    const advanced = page.getByTestId('connect-advanced');
    await advanced.waitFor();
    const open = () => advanced.evaluate((details) => (details as HTMLDetailsElement).open);
    expect(await tapped(page, 'connect-advanced', advanced.locator('summary'), open)).toEqual([false, true]);
  });
});
