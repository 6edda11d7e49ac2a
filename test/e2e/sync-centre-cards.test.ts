import { describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { demoAppForFile } from './browser.ts';

// Cards of the Sync centre that said what was true when the page opened (a helper's walk): the language
// card "learned at the next sync" after the first sync had learned them, and the picture qualities' card
// the old storage budget beside the budget card's new one.
const demo = capturingDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 }, { synced: false });

describe('the Sync centre follows what changes while it is open', () => {
  it('the languages, once the first sync has learned them', async () => {
    const { app, page } = opened;
    unwrap(await app.app.services.api.connectDemo());
    await page.goto(new URL('/sync', app.shell.url).toString());
    const card = page.getByTestId('sync-language');
    await card.getByTestId('language-one').waitFor();
    expect(await card.textContent()).toContain("The site's languages are learned at the next sync.");
    await page.getByTestId('sync-now').click();
    await page.getByTestId('sync-outcome').waitFor({ timeout: 90_000 });
    await expect.poll(() => card.locator('select option').count()).toBe(2);
    expect((await card.locator('select option').allTextContents()).join(' · ')).toMatch(/^English.* · Deutsch/);
  });

  it('a language picked while a sync runs stays picked; saved, the keyboard stays on the list', async () => {
    const { page } = opened;
    const card = page.getByTestId('sync-language');
    const select = card.getByTestId('language-select');
    await select.selectOption({ label: 'Deutsch' });
    const picked = await select.inputValue();
    await page.getByTestId('sync-now').click();
    await page.getByTestId('sync-outcome').waitFor({ timeout: 90_000 });
    // The languages are read again as the sync ends: the pick not saved yet stayed (it jumped back to English).
    await page.waitForTimeout(500);
    expect(await select.inputValue()).toBe(picked);
    await card.getByTestId('language-save').focus();
    await page.keyboard.press('Enter');
    await card.getByTestId('language-saved').waitFor();
    await expect.poll(() => select.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('the storage budget beside the picture qualities, once saved', async () => {
    const { page, pageErrors } = opened;
    await page.getByTestId('budget-amount').fill('500');
    await page.getByTestId('sync-budget').locator('select').selectOption({ label: 'MB' });
    await page.getByTestId('budget-amount').press('Enter');
    await page.getByTestId('sync-budget').filter({ hasText: 'Now 500 MB' }).waitFor();
    await expect.poll(() => page.getByTestId('quality-budget').textContent()).toContain('500 MB');
    expect(pageErrors).toEqual([]);
  });
});
