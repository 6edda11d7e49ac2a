import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { always } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, openSyncedDemoApp, type startApp } from './browser.ts';
import { expectLargerTextFits } from './screen-checks.ts';

// "Keep this guide offline" pressed on a guide read from the site, as the site stops answering: the guide
// went from the screen ("Not available offline", its safety banners and steps with it), and once a sync had
// kept it, the page went on saying "Not kept", with no Start, until Try again (found walking the app).
const demo = proxiedDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
let guideid = 0;

beforeAll(async () => {
  ({ browser, app, page } = await openSyncedDemoApp(demo, { width: 1024, height: 600 }, pageErrors));
  const { api } = app.app.services;
  // One guide kept whole, the others as their summaries: the one read here is outside the scope.
  const guides = unwrap(await api.listGuides({ limit: 50 })).items;
  unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guides[0]!.guideid] }));
  unwrap(await api.syncNow());
  const listed = unwrap(await api.listGuides({ limit: 50 })).items;
  guideid = listed.find((guide) => guide.offline === 'summary' && guide.guideid !== guides[0]!.guideid)!.guideid;
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('keeping a guide read from the site, as the site stops answering', () => {
  it('keeps the guide on screen and says it was not kept', async () => {
    await page.goto(new URL(`/guides/${guideid}`, app.shell.url).toString());
    await page.getByTestId('guide-from-site').waitFor({ timeout: 15_000 });
    const steps = await page.locator('[data-testid="guide"] [data-testid="guide-step"]').count();
    expect(steps).toBeGreaterThan(0);
    // Each request held 6 s: longer than a check waits (2 s), so the keep gives up; then they are answered.
    demo.setSchedule(always({ kind: 'stall', ms: 6_000 }));
    await page.getByTestId('guide-keep').click();
    const said = page.getByTestId('guide-from-site');
    await expect.poll(() => said.textContent(), { timeout: 30_000 }).toContain('Not kept:');
    expect(await said.textContent()).toContain('The next sync tries again.');
    // Work on it: not "keep it offline first" (it is in the scope now, waiting for the site).
    expect(await page.getByTestId('guide-work-needs-offline').textContent()).toContain(
      'it is kept as soon as the site answers, and a session can start here then.',
    );
    // The guide it was reading is still there, its steps too.
    expect(await page.getByTestId('guide-unavailable').count()).toBe(0);
    expect(await page.locator('[data-testid="guide"] [data-testid="guide-step"]').count()).toBe(steps);
    await page.screenshot({ path: artifact('keep-hanging-site-not-kept.png') });
    await expectLargerTextFits(page, 'keep-hanging-site', said);
    // The Sync centre lists it as not stored, in this computer's words, not as what "the site said".
    const centre = await page.context().newPage();
    await centre.goto(new URL('/sync', app.shell.url).toString());
    const row = centre.locator(`[data-testid="sync-failed-guide"][data-guideid="${guideid}"]`);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('does not answer just now');
    expect(await row.textContent()).not.toContain('The site said');
    await centre.close();
  });

  it('takes the guide kept by the next sync, with Start work session, without Try again', async () => {
    demo.setSchedule(null);
    const { api } = app.app.services;
    await expect.poll(async () => unwrap(await api.getStatus()).network, { timeout: 30_000 }).toBe('online');
    expect(unwrap(await api.syncNow()).status).toBe('complete');
    await page.getByTestId('guide-from-site').waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByTestId('start-session-button').waitFor();
    await page.screenshot({ path: artifact('keep-hanging-site-kept.png') });
    expect(pageErrors).toEqual([]);
  });
});
