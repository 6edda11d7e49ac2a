import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/types.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { unwrap } from '../helpers/library.ts';
import { appPage, artifact, openDemoApp, type startApp } from './browser.ts';

// The offline library in Chromium, through the web shell over real core services: sync the demo
// workshop from the sync centre, stop the demo site, then read everything through the views.
const demo = capturingDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];

const BELT = 'Replace the Drive Belt on a 60-Gallon Air Compressor';
const TANK = 'Drain and Inspect the Air Compressor Tank';
const LP_TANK = 'Change the LP Tank on a Forklift';
const POISONED = 'Change the Oil in a Two-Stage Compressor Pump';
const MIG = 'Replace the Contact Tip and Nozzle on a MIG Torch';
/** Every category but Welding (and its MIG Welders) is kept whole in the second sync. */
const KEPT_CATEGORIES = ['Air Compressors', 'Forklifts', 'Machine Tools', 'Shop Safety'];

/**
 * Puts hostile HTML where a site's renderer would: the guide's introduction and the first line of its
 * first step, in the reference server's database, before the app syncs. Each payload would set
 * `window.__pwned` if it ever ran.
 */
function plantHostileGuide(db: Db, title: string): void {
  const row = db
    .prepare(
      'SELECT g.guideid, g.revisionid FROM guides g ' +
        'JOIN guide_revisions r ON r.revisionid = g.revisionid WHERE r.title = ?',
    )
    .get(title) as { guideid: number; revisionid: number } | undefined;
  if (!row) throw new Error(`No demo guide "${title}"`);
  db.prepare('UPDATE guide_revisions SET introduction_rendered = ? WHERE revisionid = ?').run(
    '<p>Hostile introduction text stays readable.</p>' +
      '<script>window.__pwned = "script"</script>' +
      '<img src="x" onerror="window.__pwned = \'onerror\'">' +
      '<p onmouseover="window.__pwned = \'handler\'">Hover text.</p>' +
      '<a href="javascript:window.__pwned = \'link\'" data-testid="hostile-link">Read the hostile link</a>' +
      '<svg onload="window.__pwned = \'svg\'"><script>window.__pwned = "svg-script"</script></svg>' +
      '<iframe src="javascript:parent.__pwned = \'iframe\'"></iframe>',
    row.revisionid,
  );
  const changed = db
    .prepare(
      `UPDATE step_lines SET text_rendered = ? WHERE rowid = (
         SELECT l.rowid FROM step_lines l JOIN guide_revision_steps s ON s.step_revisionid = l.step_revisionid
         WHERE s.revisionid = ? ORDER BY s.orderby, l.idx LIMIT 1)`,
    )
    .run(
      'Hostile step line stays readable.<img src=x onerror="window.__pwned = \'step-onerror\'">' +
        '<a href=" javascript:window.__pwned = \'step-link\'">step link</a><style>body { display: none }</style>',
      row.revisionid,
    );
  if (changed.changes !== 1) throw new Error('The hostile step line was not planted');
}

beforeAll(async () => {
  ({ browser, app, page } = await openDemoApp(demo, { width: 1280, height: 800 }, pageErrors));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function syncFromSyncCentre(): Promise<void> {
  await page.getByTestId('nav-sync').click();
  // syncNow answers when the sync has ended; the view then reads the final state.
  const answered = page.waitForResponse((response) => response.url().endsWith('/rpc/syncNow'), { timeout: 90_000 });
  await page.getByTestId('sync-now').click();
  await answered;
  await page.waitForFunction(
    () => document.querySelector<HTMLButtonElement>('[data-testid="sync-now"]')?.disabled === false,
  );
  await page.getByTestId('sync-outcome').waitFor();
  expect((await page.getByTestId('sync-phase').textContent())?.trim()).toBe('Finished');
  expect(await page.getByTestId('sync-last-error').count()).toBe(0);
}

/** Waits until every <img> matched has loaded with real pixels; returns how many there are. */
async function imagesLoaded(selector: string): Promise<number> {
  await page.waitForFunction(
    (sel) => {
      const images = [...document.querySelectorAll<HTMLImageElement>(sel)];
      return images.length > 0 && images.every((img) => img.complete && img.naturalWidth > 0);
    },
    selector,
    { timeout: 15_000 },
  );
  return page.locator(selector).count();
}

/** A screenshot of a whole view: the app scrolls inside <main>, so the window is made as tall as it. */
async function fullViewShot(name: string): Promise<void> {
  const height = await page.evaluate(() => document.querySelector('.app-main')!.scrollHeight + 100);
  await page.setViewportSize({ width: 1280, height: Math.min(height, 8000) });
  await page.waitForTimeout(300);
  await page.screenshot({ path: artifact(name) });
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function openFromLibrary(title: string): Promise<void> {
  await page.getByTestId('nav-library').click();
  await page.getByTestId('filter-tag').fill('');
  const row = page.getByTestId('guide-row').filter({ hasText: title });
  await row.first().click();
  await page.waitForURL(/\/guides\/\d+$/);
}

describe('the offline library in the browser', () => {
  it('syncs the demo workshop with the sync centre and keeps the chosen categories whole', async () => {
    await page.goto(app.shell.url);
    await page.getByTestId('connect-demo').click();
    await page.waitForURL(new URL('/', app.shell.url).toString());
    await page.getByTestId('library-empty').waitFor();
    plantHostileGuide(demo.site().db, POISONED);

    await syncFromSyncCentre();
    const offline = page.getByTestId('sync-guides-offline');
    const [kept, total] = ((await offline.textContent()) ?? '').split(' of ').map((n) => Number.parseInt(n, 10));
    expect(total).toBeGreaterThanOrEqual(10);
    expect(kept).toBe(total);

    await page.getByTestId('scope-selected').check();
    const scope = page.getByTestId('sync-scope');
    for (const name of KEPT_CATEGORIES) await scope.getByLabel(new RegExp(`^${name}`)).check();
    await page.getByTestId('scope-save').click();
    await page.waitForFunction(
      () => document.querySelector<HTMLButtonElement>('[data-testid="scope-save"]')?.disabled === true,
    );
    await syncFromSyncCentre();
    const [keptNow, totalNow] = ((await offline.textContent()) ?? '').split(' of ').map((n) => Number.parseInt(n, 10));
    expect(totalNow).toBe(total);
    expect(keptNow).toBeLessThan(totalNow!);
    expect(keptNow).toBeGreaterThan(0);
  });

  it('browses the library with thumbnails once the site is stopped', async () => {
    await demo.site().close();
    await page.getByTestId('nav-library').click();
    await page.getByTestId('guide-row').first().waitFor();
    expect(await imagesLoaded('[data-testid="guide-list"] img.guide-thumb')).toBeGreaterThan(3);
    expect(
      await page
        .getByTestId('category-tree')
        .getByRole('button', { name: /Air Compressors\s*4/ })
        .count(),
    ).toBe(1);
    const mig = page.getByTestId('guide-row').filter({ hasText: MIG });
    expect((await mig.getByTestId('offline-badge').textContent())?.trim()).toBe('Summary only');
    // Out of the scope now, but its picture was kept by the first sync and fits the budget: still shown.
    expect(await mig.getByTestId('guide-thumb').count()).toBe(1);
    await page.screenshot({ path: artifact('library.png') });

    await page.getByTestId('filter-type').selectOption('maintenance');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="guide-row"]')].every((row) =>
        row.textContent?.includes('Maintenance'),
      ),
    );
    await page.getByTestId('filter-type').selectOption('');
    // The tag filter suggests the tags of the stored guides, most used first, with their counts.
    const tags = unwrap(await app.app.services.api.listTags());
    expect(tags.map((t) => t.tag)).toContain('belt');
    const options = await page
      .getByTestId('filter-tag-options')
      .locator('option')
      .evaluateAll((els) => els.map((el) => [(el as HTMLOptionElement).value, (el as HTMLOptionElement).label]));
    expect(options).toEqual(tags.map((t) => [t.tag, `${t.tag} (${t.guides})`]));
    await page.getByTestId('filter-tag').fill('belt');
    await page.waitForFunction((title) => {
      const rows = [...document.querySelectorAll('[data-testid="guide-row"]')];
      return rows.length > 0 && rows.length < 5 && rows.some((row) => row.textContent?.includes(title));
    }, BELT);
    await page.getByTestId('filter-tag').fill('');
    await page
      .getByTestId('category-tree')
      .getByRole('button', { name: /^Forklifts/ })
      .click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="guide-row"]').length === 3);
    await page
      .getByTestId('category-tree')
      .getByRole('button', { name: /^All guides/ })
      .click();
  });

  it('keeps its filters on one row and two guides whole at 1024x600 with Larger text', async () => {
    // The tag field's default width (20 characters) put Offline only on a second row, and the list showed
    // one guide whole and half of the next.
    const sized = await appPage(browser, app.shell, { width: 1024, height: 600 });
    sized.on('pageerror', (error) => pageErrors.push(error.message));
    await sized.addInitScript(() => localStorage.setItem('fieldguide.textSize', 'large'));
    await sized.goto(new URL('/', app.shell.url).toString());
    await sized.getByTestId('guide-row').nth(2).waitFor();
    await sized.waitForTimeout(150);
    const seen = await sized.evaluate(() => {
      // The filters stand on their bottoms (align-items: flex-end): one row, one bottom.
      const bottoms = [...document.querySelectorAll('.library-filters > *')].map((el) =>
        Math.round(el.getBoundingClientRect().bottom),
      );
      const list = document.querySelector('[data-testid="guide-list"]')!.getBoundingClientRect();
      const bar = document.querySelector('footer.status-bar')!.getBoundingClientRect();
      const end = Math.min(list.bottom, bar.top);
      const whole = [...document.querySelectorAll('[data-testid="guide-row"]')].filter((row) => {
        const box = row.getBoundingClientRect();
        return box.top >= list.top - 1 && box.bottom <= end + 1;
      });
      return { filterRows: new Set(bottoms).size, filters: bottoms.length, wholeRows: whole.length };
    });
    await sized.screenshot({ path: artifact('library-1024x600-larger.png') });
    await sized.context().close();
    expect(seen.filters).toBe(3);
    expect(seen.filterRows, 'rows of filters').toBe(1);
    expect(seen.wholeRows, 'guides whole in view').toBeGreaterThanOrEqual(2);
  });

  it('opens a guide with its danger banner, pictures that load, a lightbox, parts, tools and documents', async () => {
    await openFromLibrary(BELT);
    const guide = page.getByTestId('guide');
    await guide.waitFor();
    const banner = page.getByTestId('safety-banner');
    expect(await banner.getAttribute('data-flag')).toBe('DANGER');
    const bannerBox = await banner.boundingBox();
    const titleBox = await page.getByRole('heading', { name: BELT }).boundingBox();
    expect(bannerBox!.y).toBeLessThan(titleBox!.y);
    expect(await page.getByTestId('guide-step').count()).toBeGreaterThan(3);
    expect(await page.getByTestId('guide-tools').locator('li').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('guide-prerequisites').getByRole('link').count()).toBeGreaterThan(0);
    // Their steps are this guide's first ones: said, so a technician does not do them twice (it said only
    // "Complete these guides first:").
    expect(await page.getByTestId('prerequisites-included').textContent()).toContain(
      'Their steps are the first steps of this guide',
    );

    const firstImage = page.getByTestId('step-image').first();
    await firstImage.scrollIntoViewIfNeeded();
    // The first step shown (a prerequisite's, the belt guide's lockout: its steps come first).
    const firstStep = await page.getByTestId('guide-step').first().getAttribute('data-stepid');
    const pictures = `[data-testid="guide-step"][data-stepid="${firstStep}"] [data-testid="step-image"] img`;
    expect(await imagesLoaded(pictures)).toBeGreaterThan(0);
    const natural = await firstImage.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth);
    expect(natural).toBeGreaterThan(0);

    await firstImage.click();
    const lightbox = page.getByTestId('lightbox');
    await lightbox.waitFor();
    expect(await imagesLoaded('[data-testid="lightbox"] img')).toBe(1);
    await page.getByTestId('lightbox-zoom').click();
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'hidden' });

    const documentLink = page.getByTestId('guide-documents').getByRole('link').first();
    const href = await documentLink.getAttribute('href');
    expect(href).toMatch(/^\/media\//);
    const status = await page.evaluate(async (url) => (await fetch(url!)).status, href);
    expect(status).toBe(200);

    await page.evaluate(() => document.querySelector('.app-main')!.scrollTo(0, 0));
    await fullViewShot('guide.png');
  });

  it('plays a video step from the local copy and shows an embed only as a link', async () => {
    await openFromLibrary(TANK);
    const video = page.getByTestId('step-video');
    await video.waitFor();
    const sources = await video.evaluate((element: HTMLVideoElement) => ({
      poster: element.getAttribute('poster'),
      src: element.querySelector('source')?.getAttribute('src') ?? null,
    }));
    expect(sources.src).toMatch(/^\/media\//);
    expect(sources.poster).toMatch(/^\/media\//);
    for (const url of [sources.src, sources.poster]) {
      expect(await page.evaluate(async (u) => (await fetch(u!)).status, url)).toBe(200);
    }

    // The site is away: the embed is its title and says it needs the network (online, a link: dialects.test.ts).
    await openFromLibrary(LP_TANK);
    const embed = page.getByTestId('step-embed');
    await embed.waitFor();
    expect(await embed.getByTestId('step-embed-title').textContent()).toBe("LP tank change, from the operator's side");
    await embed.getByTestId('step-embed-offline').waitFor();
    expect(await embed.getByRole('link').count()).toBe(0);
    expect(await page.locator('iframe').count()).toBe(0);
  });

  it('shows hostile guide HTML as text and runs none of it', async () => {
    await page.evaluate(() => ((window as { __pwned?: unknown }).__pwned = false));
    await openFromLibrary(POISONED);
    const guide = page.getByTestId('guide');
    await guide.waitFor();
    await page.getByText('Hostile introduction text stays readable.').waitFor();
    await page.getByText('Hostile step line stays readable.').waitFor();
    await page.getByText('Read the hostile link').click();
    await page.getByText('Hover text.').hover();
    await page.waitForTimeout(300);

    // The app's own controls (the start-a-session form, say) are not server HTML: look inside what
    // SafeHtml rendered from the site, and for scripts and iframes anywhere in the guide.
    const found = await guide.evaluate((root) => ({
      scripts:
        root.querySelectorAll('script, iframe, object, embed').length +
        [...root.querySelectorAll('.safe-html')].reduce(
          (n, el) => n + el.querySelectorAll('style, form, img:not([src^="/media/"])').length,
          0,
        ),
      handlers: [...root.querySelectorAll('*')].flatMap((el) =>
        [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name),
      ),
      scriptLinks: [...root.querySelectorAll('a[href]')].filter(
        (a) => !/^(https?:|\/)/.test(a.getAttribute('href')!.trim()),
      ).length,
    }));
    expect(found).toEqual({ scripts: 0, handlers: [], scriptLinks: 0 });
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBe(false);
    expect(await page.evaluate(() => getComputedStyle(document.body).display)).not.toBe('none');
    await page.screenshot({ path: artifact('guide-hostile-html.png') });
  });

  it('shows the stored summary of a guide outside the offline scope, calmly, while the site is down', async () => {
    await openFromLibrary(MIG);
    const summary = page.getByTestId('guide-summary');
    await summary.waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(MIG);
    expect((await page.getByTestId('guide-summary-text').textContent())?.length).toBeGreaterThan(10);
    expect(await summary.getByTestId('offline-badge').textContent()).toContain('Summary only');
    const needsSite = page.getByTestId('guide-needs-site');
    expect(await needsSite.getAttribute('data-code')).toBe('offline');
    expect(await needsSite.getAttribute('role')).toBe('status');
    expect(await page.getByTestId('guide-error-message').textContent()).toContain(MIG);
    expect(await imagesLoaded('[data-testid="guide-summary-picture"]')).toBe(1);
    expect(await page.getByTestId('guide-unavailable').count()).toBe(0);
    await page.screenshot({ path: artifact('guide-summary-offline.png') });
  });

  it('searches the guides on this computer while the site is down', async () => {
    await page.getByTestId('nav-search').click();
    await page.getByTestId('search-box').fill('belt');
    await page.keyboard.press('Enter');
    const source = page.getByTestId('search-source');
    await source.waitFor();
    expect(await source.getAttribute('data-source')).toBe('local');
    expect(await page.getByTestId('search-result').filter({ hasText: BELT }).count()).toBe(1);
  });

  it("shows each search result's worst hazard, as the library row does", async () => {
    // Search results showed no flag: the forklift inspection (RISK OF DEATH) and the drive belt (DANGER)
    // looked like any other guide until opened.
    const result = (title: string) => page.getByTestId('search-result').filter({ hasText: title });
    await page.getByTestId('search-box').fill('forklift');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => result('Forklift Daily Pre-Shift Inspection').getByTestId('guide-flag').textContent())
      .toBe('Risk of death');
    await page.getByTestId('search-box').fill('compressor');
    await page.keyboard.press('Enter');
    await expect.poll(() => result(BELT).getByTestId('guide-flag').textContent()).toBe('Danger');
    await result(TANK).waitFor();
    expect(await result(TANK).getByTestId('guide-flag').count()).toBe(0);
  });

  it('shows the sync centre: last sync, storage against the budget, and a failed sync with its resource', async () => {
    await page.getByTestId('nav-sync').click();
    await page.getByTestId('sync-storage').waitFor();
    expect(await page.getByTestId('sync-last').textContent()).toContain('Last complete sync');
    expect(await page.getByTestId('sync-storage').textContent()).toMatch(
      /\d+(\.\d)? (KB|MB) of media used, budget 2\.0 GB/,
    );
    expect((await page.getByTestId('sync-pending-media').textContent())?.trim()).toBe('0');
    await fullViewShot('sync-centre.png');

    await page.getByTestId('sync-now').click();
    const failure = page.getByTestId('sync-last-error').or(page.getByTestId('sync-call-error'));
    await failure.first().waitFor({ timeout: 60_000 });
    expect(await failure.first().textContent()).toMatch(/\S/);
    // The site is away (the chip says Offline): the progress says so in the Offline colour, not "Stopped by
    // an error" in red above a card that says the guides still work.
    await page.locator('[data-testid="sync-last-error"][data-tone="offline"]').waitFor();
    expect((await page.getByTestId('sync-phase').textContent())?.trim()).toBe('Stopped: the site could not be reached');
    const progress = page.getByTestId('sync-progress');
    expect(await progress.getAttribute('data-tone')).toBe('offline');
    const fill = await progress.locator('.bar-fill').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(fill).toBe('rgb(201, 138, 28)');
    await page.screenshot({ path: artifact('sync-centre-site-down.png') });
  });

  it('ran without script errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
