import { describe, expect, it } from 'vitest';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { unwrap } from '../helpers/library.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { demoAppForFile } from './browser.ts';

// A walk in German (the demo site's translations): the guide's German text was not marked `lang="de"`, so
// a screen reader read "Die Menschen in der Nähe informieren" with English sounds. The guide's own text now
// carries the language it is in, step by step: a prerequisite the site has not translated stays English.
const demo = capturingDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 });
const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;
const [HOSE, INSPECTION] = [id('forklift-hose'), id('forklift-inspection')];

describe('text in the language the technician reads guides in', () => {
  it('the guide page marks its German text German and an untranslated prerequisite English', async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    unwrap(await api.setLanguage('de'));
    unwrap(await api.syncNow());
    await page.goto(new URL(`/guides/${HOSE}`, app.shell.url).toString());
    const title = page.locator('h1.guide-title');
    await expect.poll(() => title.textContent()).toContain('Hydraulikschlauch');
    expect(await title.getAttribute('lang')).toBe('de');
    expect(await page.getByTestId('guide-introduction').getAttribute('lang')).toBe('de');
    // The app's own words stay the page's English.
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    const steps = page.getByTestId('guide-step');
    const first = steps.first();
    expect(await first.locator('.step-title').textContent()).toBe('Die Menschen in der Nähe informieren');
    expect(await first.locator('.step-title').getAttribute('lang')).toBe('de');
    expect(await first.locator('.step-lines').getAttribute('lang')).toBe('de');
    const english = page.locator(`[data-testid="guide-step"]:has(.step-title:text-is("Identify the truck"))`);
    expect(await english.count()).toBe(1);
    const detail = unwrap(await api.getGuide(HOSE));
    expect(detail.steps.some((step) => step.guideid === INSPECTION)).toBe(true);
    expect(await english.locator('.step-title').getAttribute('lang')).toBe('en');
    expect(await english.locator('.step-lines').getAttribute('lang')).toBe('en');
    // The prerequisites' titles too, in the list and over their steps: the lockout's German, the inspection's not.
    const langs = (selector: string) =>
      page.locator(selector).evaluateAll((els) => els.map((el) => el.getAttribute('lang')));
    expect(await langs('.prereq-link')).toEqual(['de', 'en']);
    expect(await langs('[data-testid="guide-section-title"] span')).toEqual(['de', 'en']);
    expect(pageErrors).toEqual([]);
  });

  let sessionId = '';
  it('run mode marks the step it shows', async () => {
    const { app, page, pageErrors } = opened;
    const session = unwrap(await app.app.services.api.startSession({ guideid: HOSE, workorderid: 'WO-LANG' }));
    sessionId = session.id;
    await page.goto(new URL(`/sessions/${session.id}`, app.shell.url).toString());
    const heading = page.getByTestId('session-step').locator('.run-title');
    await expect.poll(() => heading.textContent()).toBe('Die Menschen in der Nähe informieren');
    expect(await heading.getAttribute('lang')).toBe('de');
    expect(await page.getByTestId('session-step').locator('.step-lines').getAttribute('lang')).toBe('de');
    expect(await page.getByTestId('step-prerequisite').locator('span').getAttribute('lang')).toBe('de');
    // The header's title too: the guide's German one, not the site's English the session was started with.
    const title = page.locator('.session-guide');
    expect(await title.textContent()).toBe('Hydraulikschlauch am Hubmast eines Gabelstaplers ersetzen');
    expect(await title.getAttribute('lang')).toBe('de');
    expect(pageErrors).toEqual([]);
  });

  it("the report marks each step's title in its language", async () => {
    const { app, page, pageErrors } = opened;
    await page.goto(new URL(`/sessions/${sessionId}/report`, app.shell.url).toString());
    await page.locator('[data-testid="session-report"][data-ready="true"]').waitFor();
    const titles = await page
      .getByTestId('report-step')
      .locator('.report-step-title span')
      .evaluateAll((spans) => spans.map((span) => [span.textContent, span.getAttribute('lang')]));
    expect(titles).toContainEqual(['Die Menschen in der Nähe informieren', 'de']);
    expect(titles).toContainEqual(['Identify the truck', 'en']);
    expect(pageErrors).toEqual([]);
  });
});
