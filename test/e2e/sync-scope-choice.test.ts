import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { generateSite } from '../../server/generator/generator.ts';
import { startSite, type RunningSite } from '../../server/site.ts';
import { api as siteApi, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { appPage, artifact, launchChromium, startApp } from './browser.ts';
import { tabTo } from './focus.ts';
import { expectLargerTextFits } from './screen-checks.ts';

// Issue 15, big sites: after a first sync of a site bigger than a first sync takes, the sync centre asks
// the technician what to keep whole, with each category's guide count; choosing downloads only that.
// Issue 29: the guide the technician worked on (the site's work log) is kept whole meanwhile, and says so.
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let site: RunningSite;
let page: Page;
const pageErrors: string[] = [];
/** The guide tech1 worked on, on the site, before this laptop's first sync. */
let worked: number;

beforeAll(async () => {
  [browser, app, site] = await Promise.all([
    launchChromium(),
    startApp(),
    startSite({ seed: (db) => void generateSite(db, { guides: 2300, steps: 1, images: 0, seed: 9 }) }),
  ]);
  const tech1 = await signIn(site, 'tech1');
  const listed = (await siteApi(site, 'GET', '/guides', { query: { limit: 20, offset: 40 } })).body;
  worked = (listed as { guideid: number }[])[5]!.guideid;
  const started = await siteApi(site, 'POST', '/work_log', {
    token: tech1.token,
    json: { guideid: worked, workorderid: 'WO-7731' },
  });
  expect(started.status).toBe(201);
  const { api } = app.app.services;
  unwrap(
    await api.signIn({ siteUrl: site.url, email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password }),
  );
  expect(unwrap(await api.syncNow())).toMatchObject({ status: 'complete' });
  page = await appPage(browser, app.shell, { width: 1280, height: 900 });
  page.on('pageerror', (error) => pageErrors.push(error.message));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await site?.close();
});

describe('the first sync of a big site asks what to keep', () => {
  it('says how many guides the site has and offers its categories with their sizes', async () => {
    const { api } = app.app.services;
    const state = unwrap(await api.getSyncState());
    await page.goto(`${app.shell.url}/sync`);
    const prompt = page.getByTestId('sync-scope-choice');
    await prompt.waitFor();
    const [largest] = [...unwrap(await api.getCategories())].sort((a, b) => b.guideCount - a.guideCount);
    // The categories are read after the prompt shows: wait for them before reading its text.
    await prompt.getByText(largest!.title, { exact: false }).first().waitFor();
    const text = (await prompt.textContent()) ?? '';
    expect(text).toContain(`This site has ${state.scopeChoice!.guides.toLocaleString('en-US')} guides`);
    expect(text).toContain('more than a first sync downloads whole (2,000)');
    expect(text).toContain(`${largest!.title}`);
    expect(text).toContain(`${largest!.guideCount.toLocaleString('en-US')} guides`);
    expect(state.scopeChoice!.worked).toEqual([worked]);
    expect(text).toContain('The guide you worked on is kept whole meanwhile, and stays kept');
    await page.screenshot({ path: artifact('sync-scope-choice.png') });
  });

  it('fits the choice, with the guide worked on, at three sizes with Larger text', async () => {
    await expectLargerTextFits(page, 'sync-scope-choice', page.getByTestId('scope-choice-worked'));
  });

  it('is chosen by keyboard alone, keeps the chosen category whole and stops asking', async () => {
    const { api } = app.app.services;
    const categories = [...unwrap(await api.getCategories())].sort((a, b) => a.guideCount - b.guideCount);
    const smallest = categories[0]!;
    await page.goto(`${app.shell.url}/sync`);
    const prompt = page.getByTestId('sync-scope-choice');
    await prompt.getByText(smallest.title, { exact: false }).first().waitFor();
    // From the top of the page: Tab to the category's checkbox (its label names it), Space, Tab to Keep, Enter.
    // A screen reader names it "Title, N guides" (not "TitleN guides": the two spans ran together).
    const count = smallest.guideCount.toLocaleString('en-US');
    const name = `${smallest.title}, ${count} guide${smallest.guideCount === 1 ? '' : 's'}`;
    await tabTo(page, (f) => f.within === 'sync-scope-choice' && f.tag === 'input' && f.text === name, 40);
    await page.keyboard.press('Space');
    // Its accessible name (Chromium's, as a screen reader hears it): title and count apart.
    const title = smallest.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const heard = new RegExp(`^${title} ?, ${count} guides?$`);
    expect(await prompt.getByRole('checkbox', { name: heard }).isChecked()).toBe(true);
    await tabTo(page, (f) => f.testid === 'scope-choice-save', 200);
    await page.keyboard.press('Enter');
    await prompt.waitFor({ state: 'detached' });
    expect(unwrap(await api.getSyncState()).scope).toEqual({
      mode: 'selected',
      categories: [smallest.name],
      guideids: [worked],
    });
    await app.app.services.api.syncNow();
    // The category's guides and the one worked on are kept whole, and the guides they need first with them.
    const chosen = unwrap(await api.listGuides({ category: smallest.name, limit: 500 })).items;
    expect(chosen).toHaveLength(smallest.guideCount);
    const kept = new Set([...chosen.map((guide) => guide.guideid), worked]);
    for (const guideid of [...kept]) {
      for (const prereq of unwrap(await api.getGuide(guideid)).prerequisites) kept.add(prereq.guideid);
    }
    expect(unwrap(await api.getSyncState()).guides.offline).toBe(kept.size);
    expect(pageErrors).toEqual([]);
  });
});
