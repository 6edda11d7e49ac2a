import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASS, type Schedule } from '../fault/proxy.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { unwrap } from '../helpers/library.ts';
import { artifact, openDemoApp, type startApp } from './browser.ts';

// Library rows drawn before their pictures arrived get them as they land, during the sync, with no
// request for a picture that is not there (a console error fails the test). The demo workshop sits
// behind the fault proxy, which holds the first media requests back and the video longer still.
const demo = proxiedDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  ({ browser, app, page } = await openDemoApp(demo, { width: 1280, height: 800 }, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/**
 * The first four media requests wait 3 s (nothing lands while the list is drawn), every video 10 s (the
 * sync runs on after the pictures landed; under the app's 20 s request time limit, so it is not retried).
 * Videos are asked for only once every picture has been (media-order.test.ts), so the sync is still
 * running for 10 s after the last picture was asked for.
 */
function slowMedia(): Schedule {
  let media = 0;
  return (request) => {
    if (request.path.startsWith('/video/')) return { kind: 'delay', ms: 10_000 };
    if (/^\/(igi|documents)\//.test(request.path) && ++media <= 4) return { kind: 'delay', ms: 3_000 };
    return PASS;
  };
}

describe('library thumbnails during a sync', () => {
  it('appear in rows drawn before their pictures landed, while the sync still runs', async () => {
    await page.goto(app.shell.url);
    await page.getByTestId('connect-demo').click();
    await page.getByTestId('library-empty').waitFor();
    demo.setSchedule(slowMedia());

    await page.getByTestId('nav-sync').click();
    const answered = page.waitForResponse((response) => response.url().endsWith('/rpc/syncNow'), { timeout: 90_000 });
    await page.getByTestId('sync-now').click();
    await page.getByTestId('nav-library').click();

    // A row drawn with a plain tile: its picture is not on this laptop yet.
    const waiting = page.locator('[data-testid="guide-row"]:has([data-testid="guide-thumb-empty"])').first();
    await waiting.waitFor({ timeout: 30_000 });
    const guideid = await waiting.getAttribute('data-guideid');
    await page.screenshot({ path: artifact('library-thumbnails-waiting.png') });

    // The same row shows its picture once it lands, and the sync is not over.
    await page.waitForFunction(
      (id) => {
        const img = document.querySelector<HTMLImageElement>(
          `[data-testid="guide-row"][data-guideid="${id}"] img[data-testid="guide-thumb"]`,
        );
        return img !== null && img.complete && img.naturalWidth > 0;
      },
      guideid,
      { timeout: 30_000 },
    );
    expect(unwrap(await app.app.services.api.getSyncState()).running).toBe(true);
    await page.screenshot({ path: artifact('library-thumbnails-landing.png') });

    expect((await (await answered).json()) as unknown).toMatchObject({ ok: true, value: { status: 'complete' } });
    await page.waitForFunction(() => {
      const images = [
        ...document.querySelectorAll<HTMLImageElement>('[data-testid="guide-list"] img[data-testid="guide-thumb"]'),
      ];
      return (
        document.querySelectorAll('[data-testid="guide-thumb-empty"]').length === 0 &&
        images.length > 3 &&
        images.every((img) => img.complete && img.naturalWidth > 0)
      );
    });
    expect(demo.proxy().requestsTo(/^\/video\//).length).toBeGreaterThan(0);
  });

  it("the sync centre's figures move with the pictures a sync stores, not only when its phase ends", async () => {
    // Originals kept from now on: the next sync downloads a picture for every step, each held a while.
    demo.setSchedule((request) => (/^\/igi\//.test(request.path) ? { kind: 'delay', ms: 800 } : PASS));
    unwrap(await app.app.services.api.setPictureQuality('original'));
    await page.getByTestId('nav-sync').click();
    const files = page.getByTestId('sync-media-files');
    const counted = async () => Number((await files.textContent())?.replace(/\D/g, ''));
    await files.waitFor();
    const answered = page.waitForResponse((response) => response.url().endsWith('/rpc/syncNow'), { timeout: 90_000 });
    await page.getByTestId('sync-now').click();
    // Pictures stored well into the media phase (each held 800 ms): the count on screen follows them while
    // the phase goes on (it stood at the count read when the phase began, until the sync ended).
    const state = async () => unwrap(await app.app.services.api.getSyncState());
    const mediaDone = async () => ((s) => (s.progress.phase === 'media' ? s.progress.done : -1))(await state());
    await expect.poll(mediaDone, { timeout: 60_000 }).toBeGreaterThanOrEqual(0);
    const atStart = await mediaDone();
    await expect.poll(mediaDone, { timeout: 60_000 }).toBeGreaterThanOrEqual(atStart + 3);
    const landed = (await state()).storage.mediaFiles;
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid="sync-media-files"]')?.textContent?.replace(/\D/g, '')) >= n,
      landed,
      { timeout: 60_000 },
    );
    const during = unwrap(await app.app.services.api.getSyncState());
    expect([during.running, during.progress.phase]).toEqual([true, 'media']);
    expect((await (await answered).json()) as unknown).toMatchObject({ ok: true, value: { status: 'complete' } });
    demo.setSchedule(null);
    await expect.poll(counted).toBe(unwrap(await app.app.services.api.getSyncState()).storage.mediaFiles);
  });

  it('ran without script errors, CSP violations or requests for pictures that are not there', () => {
    expect(pageErrors).toEqual([]);
  });
});
