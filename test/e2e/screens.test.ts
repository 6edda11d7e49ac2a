import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { always } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { openDemoApp, type startApp } from './browser.ts';
import { checkScreen, formatProblems, VIEWPORTS, type Viewport } from './screen-checks.ts';

// Every screen at 1366×768, 1024×600 and 800×1280: axe-core (serious and critical fail), no sideways
// scroll, touch targets, text size, nothing cut. Screenshots land in test-results/e2e/screens/<size>/.
const demo = proxiedDemoWorkshop();
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
let other: RunningSite;
const pageErrors: string[] = [];

beforeAll(async () => {
  [{ browser, app, page }, other] = await Promise.all([openDemoApp(demo, VIEWPORTS[0], pageErrors), startDemoSite()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await other?.close();
});

/** Shows the screen at each size (`show` runs after each resize) and checks it. */
async function atEverySize(screen: string, show: (viewport: Viewport) => Promise<void>): Promise<void> {
  const problems = [];
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await show(viewport);
    problems.push(...(await checkScreen(page, screen, viewport)));
  }
  expect(formatProblems(problems)).toBe('');
}

async function visit(name: string, ready: string): Promise<void> {
  await page.getByTestId(name).click();
  await page.getByTestId(ready).first().waitFor();
}

describe('every screen at three sizes, with axe-core', () => {
  it('connect', async () => {
    await page.goto(app.shell.url);
    await atEverySize('connect', async () => {
      await page.getByTestId('connect-form').waitFor();
    });
  });

  it('connect: the site refuses the password', async () => {
    await atEverySize('connect-refused', async () => {
      await page.goto(new URL('/connect', app.shell.url).toString());
      await page.locator('input[name="siteUrl"]').fill(other.url);
      await page.locator('input[name="email"]').fill('tech1@demo.test');
      await page.locator('input[name="password"]').fill('not the password');
      await page.getByTestId('connect-submit').click();
      const alert = page.getByTestId('connect-error');
      await alert.waitFor();
      // In view, focused, and in the accessibility tree as an alert that says what happened.
      await expect.poll(() => alert.evaluate((el) => el === document.activeElement)).toBe(true);
      const box = (await alert.boundingBox())!;
      const size = page.viewportSize()!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(size.height);
      expect(await alert.ariaSnapshot()).toBe('- alert:\n  - strong: Sign-in refused.\n  - text: The site refused the e-mail and password.');
      expect(await page.locator('input[name="email"]').inputValue()).toBe('tech1@demo.test');
    });
  });

  it('connect: nothing answers at the address', async () => {
    await atEverySize('connect-unreachable', async () => {
      await page.goto(new URL('/connect', app.shell.url).toString());
      await page.locator('input[name="siteUrl"]').fill('http://127.0.0.1:9');
      await page.locator('input[name="email"]').fill('tech1@demo.test');
      await page.locator('input[name="password"]').fill('fieldguide');
      await page.getByTestId('connect-submit').click();
      await page.getByTestId('connect-error').waitFor();
    });
  });

  it('library', async () => {
    await page.goto(new URL('/connect', app.shell.url).toString());
    await page.getByTestId('connect-demo').click();
    await page.getByTestId('library').waitFor();
    await page.getByTestId('nav-sync').click();
    const answered = page.waitForResponse((response) => response.url().endsWith('/rpc/syncNow'), { timeout: 90_000 });
    await page.getByTestId('sync-now').click();
    await answered;
    await atEverySize('library', async () => {
      await visit('nav-library', 'guide-row');
    });
  });

  it('guide and lightbox', async () => {
    await atEverySize('guide', async () => {
      if (!page.url().endsWith('/guides/2')) await page.goto(new URL('/guides/2', app.shell.url).toString());
      await page.getByTestId('guide').waitFor();
    });
    await atEverySize('lightbox', async () => {
      if (!(await page.getByTestId('lightbox').isVisible())) await page.getByTestId('step-image').first().click();
      await page.getByTestId('lightbox').waitFor();
    });
    await page.keyboard.press('Escape');
  });

  it('search, with hits and with none', async () => {
    await atEverySize('search', async () => {
      await page.goto(new URL('/search?q=belt', app.shell.url).toString());
      await page.getByTestId('search-result').first().waitFor();
    });
    await atEverySize('search-none', async () => {
      await page.goto(new URL('/search?q=zzzqqq', app.shell.url).toString());
      await page.getByTestId('search-source').waitFor();
    });
  });

  it('sync centre', async () => {
    await atEverySize('sync', async () => {
      await visit('nav-sync', 'sync-centre');
    });
  });

  it('a running work session, and the session list', async () => {
    await page.goto(new URL('/guides/10', app.shell.url).toString());
    await page.getByTestId('workorder-input').fill('WO-SCREENS-1');
    await page.getByTestId('start-session-button').click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}/);
    const url = page.url();
    await atEverySize('session', async () => {
      if (page.url() !== url) await page.goto(url);
      await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    });
    await atEverySize('sessions', async () => {
      await visit('nav-sessions', 'session-row');
    });
  });

  it('quizzes and a quiz', async () => {
    await atEverySize('quizzes', async () => {
      await visit('nav-quizzes', 'quiz-row');
    });
    await atEverySize('quiz', async () => {
      await visit('nav-quizzes', 'quiz-row');
      await page.getByTestId('quiz-open').first().click();
      await page.getByTestId('quiz-survey').waitFor();
    });
  });

  it('the picture quality chooser, a choice not saved yet', async () => {
    await atEverySize('sync-picture-quality', async () => {
      await visit('nav-sync', 'picture-quality');
      await page.getByTestId('quality-size-large').filter({ hasText: /more for/ }).waitFor();
      await page.getByTestId('quality-large').check();
      await page.getByTestId('picture-quality').scrollIntoViewIfNeeded();
    });
  });

  it('a guide read from the site, and its stored summary once the site is gone', async () => {
    const api = app.app.services.api;
    unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [2, 10] }));
    unwrap(await api.syncNow());
    const outside = unwrap(await api.listGuides({ limit: 200 })).items.find((guide) => guide.offline === 'summary')!;
    const address = new URL(`/guides/${outside.guideid}`, app.shell.url).toString();
    await atEverySize('guide-from-site', async () => {
      await page.goto(address);
      await page.getByTestId('guide-from-site').waitFor();
    });
    demo.setSchedule(always({ kind: 'reset' }));
    await atEverySize('guide-summary-offline', async () => {
      await page.goto(address);
      await page.getByTestId('guide-summary').waitFor();
    });
    demo.setSchedule(null);
  });

  it('ran without script errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
