import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { fullViewShot } from './browser.ts';

/**
 * Goes to a screen of the app's bars. A running session has the window (run mode, issue 28): its way out first,
 * the guide, where the bars are back.
 */
export async function bars(page: Page, testid: string): Promise<void> {
  if (await page.getByTestId('session-leave').isVisible()) {
    await page.getByTestId('session-leave').click();
    await page.getByTestId('guide').waitFor();
  }
  await page.getByTestId(testid).click();
}

/** The switch screen, then a sign-in as `name`: a known technician by their row, someone new by "Someone else". */
export async function switchTo(page: Page, name: 'tech1' | 'tech2' | 'admin', shot?: string): Promise<void> {
  const account = DEMO_ACCOUNTS[name];
  await bars(page, 'switch-technician');
  await page.getByTestId('switch-screen').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="technician-row"]').length > 0);
  if (shot) await fullViewShot(page, shot);
  // The demo workshop's own sign-in: its accounts' password on this computer is shown here.
  expect(await page.getByTestId('demo-password').textContent()).toBe(account.password);
  const row = page.getByTestId('technician-row').filter({ hasText: account.username });
  if ((await row.count()) > 0) {
    await row.getByTestId('technician-pick').click();
    // Picked: the password field has the keyboard.
    await expect
      .poll(() => row.getByTestId('switch-password').evaluate((el) => el === document.activeElement))
      .toBe(true);
    await row.getByTestId('switch-password').fill(account.password);
    await row.getByTestId('switch-submit').click();
  } else {
    const other = page.getByTestId('switch-other-form');
    await other.getByLabel('E-mail', { exact: true }).fill(account.email);
    await other.getByTestId('switch-other-password').fill(account.password);
    await other.getByTestId('switch-other-submit').click();
  }
  await page.getByTestId('library').waitFor();
  await page.waitForFunction(
    (username) => document.querySelector('[data-testid="status-user"]')?.textContent?.trim() === username,
    account.username,
  );
}
