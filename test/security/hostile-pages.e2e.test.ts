import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/types.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { artifact, openDemoApp, type startApp } from '../e2e/browser.ts';
import { startListener, type Listener } from './http.ts';

// Issue 14, attack 7, in Chromium: a guide whose HTML hides a request in escaped CSS (`\75 rl(`, which
// only the CSP stopped) and one that lays a fixed-position "Session expired, sign in here" over the whole
// window. Neither may request anything nor cover the app.
const demo = capturingDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
let tracker: Listener;
const pageErrors: string[] = [];

function plant(db: Db, title: string, html: string): number {
  const row = db
    .prepare(
      'SELECT g.guideid, g.revisionid FROM guides g ' +
        'JOIN guide_revisions r ON r.revisionid = g.revisionid WHERE r.title = ?',
    )
    .get(title) as { guideid: number; revisionid: number };
  db.prepare('UPDATE guide_revisions SET introduction_rendered = ? WHERE revisionid = ?').run(html, row.revisionid);
  return row.guideid;
}

beforeAll(async () => {
  tracker = await startListener();
  ({ browser, app, page } = await openDemoApp(demo, { width: 1366, height: 768 }, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await tracker?.close();
});

describe('hostile guide pages', () => {
  let escapedGuide = 0;
  let overlayGuide = 0;

  it('syncs guides that carry the attacks', async () => {
    await page.goto(app.shell.launchUrl);
    await page.getByTestId('connect-demo').click();
    await page.getByTestId('library').waitFor();
    await page.getByTestId('nav-sync').click();
    const trackerUrl = tracker.url;
    escapedGuide = plant(
      demo.site().db,
      'Drain and Inspect the Air Compressor Tank',
      `<p>Escaped CSS below.</p><p style="background:\\75 rl(${trackerUrl}/escaped.gif)">Looks harmless.</p>` +
        `<p style="background-image: image-set('${trackerUrl}/set.png' 1x)">Also harmless.</p>`,
    );
    overlayGuide = plant(
      demo.site().db,
      'Replace the Drive Belt on a 60-Gallon Air Compressor',
      '<p>Intro.</p><div data-testid="overlay" style="position: fixed; inset: 0; z-index: 2147483647; ' +
        'background-color: white; color: #a00; font-size: 40px">Session expired, sign in here</div>',
    );
    expect((await app.app.services.api.syncNow()).ok).toBe(true);
  });

  it('escaped CSS requests nothing', async () => {
    await page.goto(new URL(`/guides/${escapedGuide}`, app.shell.url).toString());
    await page.getByText('Looks harmless.').waitFor();
    await page.waitForTimeout(500);
    expect(tracker.requests).toEqual([]);
    const styles = await page
      .getByTestId('guide-introduction')
      .evaluate((root) => [...root.querySelectorAll('[style]')].map((el) => el.getAttribute('style')));
    expect(styles).toEqual([]);
  });

  it('a fixed-position overlay covers nothing of the app', async () => {
    await page.goto(new URL(`/guides/${overlayGuide}`, app.shell.url).toString());
    await page.getByText('Session expired, sign in here').waitFor();
    await page.screenshot({ path: artifact('hostile-overlay.png') });
    // The top bar, the guide's title and the status bar are what a click there reaches.
    const hits = await page.evaluate(() => {
      const at = (x: number, y: number) =>
        document.elementFromPoint(x, y)?.closest('.top-bar, .status-bar, .guide-title, .safe-html')?.className ??
        'none';
      const title = document.querySelector('.guide-title')!.getBoundingClientRect();
      return {
        top: at(innerWidth / 2, 20),
        title: at(title.left + 5, title.top + title.height / 2),
        bottom: at(innerWidth / 2, innerHeight - 5),
      };
    });
    expect(hits.top).toContain('top-bar');
    expect(hits.title).toContain('guide-title');
    expect(hits.bottom).toContain('status-bar');
    const position = await page
      .getByText('Session expired, sign in here')
      .evaluate((el) => getComputedStyle(el).position);
    expect(position).toBe('static');
  });

  it('ran without script errors', () => {
    expect(pageErrors.filter((e) => !e.includes('Content Security Policy'))).toEqual([]);
  });
});
