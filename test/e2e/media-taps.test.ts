import { describe, expect, it } from 'vitest';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile, gloveDoubleTap } from './browser.ts';

// A glove's double tap on a step's pictures and video, as a walk met them: the zoom view's Close let the
// bounce fall on the page beneath (the status chip opened the Sync centre; at 800x1280 Scan), a tap on a
// thumbnail opened the view zoomed to 184 %, › went round back to the first picture, + zoomed twice, and
// the video played, paused and went full screen. One tap, one step.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 });

describe("a glove's double tap on a step's pictures and video", () => {
  it('opens the zoom view fitted, moves and zooms once, and closes it leaving the page where it was', async () => {
    const { app, page } = opened;
    const guideUrl = new URL('/guides/10', app.shell.url).toString();
    await page.goto(guideUrl);
    const step = page
      .getByTestId('guide-step')
      .filter({ has: page.locator('[data-testid="step-image"] + [data-testid="step-image"]') })
      .first();
    await step.scrollIntoViewIfNeeded();
    await gloveDoubleTap(page, step.getByTestId('step-image').first());
    const lightbox = page.getByTestId('lightbox');
    await lightbox.waitFor();
    const fit = lightbox.getByTestId('lightbox-fit');
    expect(await fit.isDisabled(), 'opened fitted, not zoomed by the second tap').toBe(true);

    await gloveDoubleTap(page, lightbox.getByRole('button', { name: 'Next picture' }));
    expect(await lightbox.locator('.lightbox-caption').textContent()).toMatch(/picture 2 of 2$/);

    const scale = () => lightbox.getByTestId('lightbox-scale').textContent();
    const zoom = lightbox.getByTestId('lightbox-zoom');
    await zoom.click();
    const once = await scale();
    await fit.click();
    await gloveDoubleTap(page, zoom);
    expect(await scale(), 'one zoom step, as one tap makes').toBe(once);

    await gloveDoubleTap(page, lightbox.getByTestId('lightbox-close'));
    await lightbox.waitFor({ state: 'hidden' });
    await page.screenshot({ path: artifact('media-taps-closed-1366x768.png') });
    expect(page.url(), 'the bounce opened nothing beneath').toBe(guideUrl);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('step-image');
  });

  it('plays a step video, without going full screen or pausing it again', async () => {
    const { app, page } = opened;
    await page.goto(new URL('/guides/3', app.shell.url).toString());
    const video = page.getByTestId('step-video').first();
    await video.scrollIntoViewIfNeeded();
    await page.waitForFunction(
      () => ((document.querySelector('[data-testid="step-video"]') as HTMLVideoElement | null)?.readyState ?? 0) >= 1,
    );
    await gloveDoubleTap(page, video);
    await expect.poll(() => video.evaluate((v) => !(v as HTMLVideoElement).paused)).toBe(true);
    expect(await page.evaluate(() => document.fullscreenElement === null)).toBe(true);
  });
});
