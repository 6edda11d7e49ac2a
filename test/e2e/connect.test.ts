import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { appPage, artifact, launchChromium, startApp } from './browser.ts';

// Chromium drives the real renderer through the web shell, over real core services and real sites.
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let otherSite: RunningSite;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  [browser, app, otherSite] = await Promise.all([launchChromium(), startApp(), startDemoSite()]);
  page = await appPage(browser, app.shell, { width: 1200, height: 800 });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await otherSite?.close();
});

describe('connecting in the browser', () => {
  it('opens the demo workshop and shows the technician in the status bar', async () => {
    await page.goto(app.shell.url);
    await page.waitForURL(/\/connect$/);
    await page.getByTestId('connect-demo').click();
    await page.waitForURL(new URL('/', app.shell.url).toString());
    await page.getByRole('heading', { level: 1, name: 'All guides' }).waitFor();
    const user = page.getByTestId('status-user');
    await page.waitForFunction(
      (name) => document.querySelector('[data-testid="status-user"]')?.textContent?.trim() === name,
      DEMO_ACCOUNTS.tech1.username,
    );
    expect((await user.textContent())?.trim()).toBe(DEMO_ACCOUNTS.tech1.username);
    expect((await page.getByTestId('status-site').textContent())?.trim()).toBe('Demo workshop');
    expect(await page.getByTestId('status-chip').getAttribute('data-network')).toBe('online');
    await page.screenshot({ path: artifact('connect-demo.png'), fullPage: true });
  });

  it('opens a nested route directly (a reload anywhere finds the app and its assets)', async () => {
    await page.goto(new URL('/sync', app.shell.url).toString());
    await page.getByTestId('status-user').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('script[src^="/assets/"]').length > 0);
    expect((await page.getByTestId('status-user').textContent())?.trim()).toBe(DEMO_ACCOUNTS.tech1.username);
    await page.goto(app.shell.url);
  });

  it('shows the refusal of a wrong password', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    // Signed out of a site this laptop knows: the next technician signs in there; another site is a link away.
    await page.waitForURL(/\/switch$/);
    expect((await page.getByTestId('status-user').textContent())?.trim()).toBe('Not signed in');
    await page.getByTestId('switch-connect').click();
    await page.waitForURL(/\/connect$/);

    await page.getByLabel('Site address').fill(otherSite.url);
    await page.getByLabel('E-mail', { exact: true }).fill(DEMO_ACCOUNTS.tech1.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByTestId('connect-submit').click();
    const alert = page.getByTestId('connect-error');
    await alert.waitFor();
    expect(await alert.getAttribute('data-code')).toBe('unauthorized');
    expect(await alert.textContent()).toContain('The site refused the e-mail and password.');
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');
    expect((await page.getByTestId('status-user').textContent())?.trim()).toBe('Not signed in');
    await page.screenshot({ path: artifact('connect-refused.png'), fullPage: true });
  });

  it('ran without script errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
