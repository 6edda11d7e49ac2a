import { describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile } from './browser.ts';

// A walk's scanning day: a guide read from the site, the network lost, the guide opened again from the
// library. The guide read a moment ago showed first, the keyboard on its title, then "Not available
// offline" took its place and the keyboard fell to the page's body. It goes to the card's heading.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1024, height: 600 });

describe('a guide read from the site, opened again with the network gone', () => {
  it("says it is not available offline, the keyboard on the card's heading", async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    const guides = unwrap(await api.listGuides({ limit: 50 })).items;
    unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guides[0]!.guideid] }));
    unwrap(await api.syncNow());
    const listed = unwrap(await api.listGuides({ limit: 50 })).items;
    const read = listed.find((guide) => guide.offline === 'summary')!;
    await page.goto(new URL(`/guides/${read.guideid}`, app.shell.url).toString());
    await page.getByTestId('guide-from-site').waitFor({ timeout: 15_000 });
    await page.getByTestId('nav-library').click();
    await page.getByTestId('guide-row').first().waitFor();
    demo.setSchedule(() => ({ kind: 'reset' }));
    await page.getByTestId('guide-row').filter({ hasText: read.title }).first().click();
    await page.getByTestId('guide-unavailable').waitFor({ timeout: 15_000 });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[data-testid="guide-unavailable"]') !== null))
      .toBe(true);
    await page.screenshot({ path: artifact('guide-gone-focus.png') });
    demo.setSchedule(null);
    expect(pageErrors).toEqual([]);
  });
});
