import path from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcPath } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startSiteProcess } from '../bench/site-process.ts';
import { unwrap } from '../helpers/library.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { appPage, launchChromium, startApp } from './browser.ts';

// A technician walks between guides while the workshop's Wi-Fi stops answering (the site's process stopped,
// SIGSTOP), then starts a session. Each guide page asks the site for the sessions others handed over; in the
// web shell every question on its way holds one of the browser's six connections to the app. They are asked
// one at a time, so the app's own answers never wait behind them. And the screens of the work are loaded
// before the first guide is opened. Behaviour only: `BENCH_ONLY=waits npm run bench` measures the waits.
const FORKLIFT = 'Forklift Daily Pre-Shift Inspection';
const OTHER = 'Replace the Drive Belt';
const tmp = makeTempDir('hanging-site-work');
let site: Awaited<ReturnType<typeof startSiteProcess>>;
let browser: Browser;
let app: Awaited<ReturnType<typeof startApp>>;
let page: Page;
const pageErrors: string[] = [];
const scripts: string[] = [];

beforeAll(async () => {
  site = await startSiteProcess(['--demo', '--db', path.join(tmp.dir, 'site.sqlite')]);
  [browser, app] = await Promise.all([launchChromium(), startApp()]);
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await app.app.services.api.signIn({ siteUrl: site.url, email, password }));
  expect(unwrap(await app.app.services.api.syncNow()).status).toBe('complete');
  page = await appPage(browser, app.shell, { width: 1366, height: 768 });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  if (site) {
    try {
      process.kill(site.pid, 'SIGCONT');
    } catch {
      // already gone
    }
    await site.stop();
  }
  tmp.remove();
});

const openGuide = async (title: string): Promise<void> => {
  await page.getByTestId('nav-library').click();
  await page.getByTestId('guide-row').filter({ hasText: title }).first().click();
  await page.locator('[data-testid="guide"] .guide-title').filter({ hasText: title }).waitFor({ timeout: 30_000 });
};

describe('work while the site hangs', () => {
  it('loads the guide and run mode screens while the library idles, before any guide is opened', async () => {
    await page.goto(new URL('/', app.shell.url).toString());
    await page.getByTestId('guide-row').first().waitFor({ timeout: 30_000 });
    const loaded = () => ['GuideView', 'SessionView'].every((name) => scripts.some((s) => s.includes(`/${name}-`)));
    await expect.poll(loaded, { timeout: 30_000 }).toBe(true);
    expect(page.url()).not.toContain('/guides/');
  });

  it('asks the site one question at a time while the technician walks between guides, then starts work', async () => {
    let onTheirWay = 0;
    let most = 0;
    const isSuspended = (request: Request) => new URL(request.url()).pathname === rpcPath('listSuspended');
    const ended = (request: Request) => {
      if (isSuspended(request)) onTheirWay--;
    };
    page.on('request', (request) => {
      if (!isSuspended(request)) return;
      onTheirWay++;
      most = Math.max(most, onTheirWay);
    });
    page.on('requestfinished', ended);
    page.on('requestfailed', ended);

    await openGuide(FORKLIFT);
    process.kill(site.pid, 'SIGSTOP');
    // Six visits at a technician's pace, two guides in turn, before the app can know the site is away.
    for (let visit = 0; visit < 6; visit++) await openGuide(visit % 2 === 0 ? OTHER : FORKLIFT);
    await page.getByTestId('workorder-input').fill('WO-HANGING-1');
    await page.getByTestId('start-session-button').click();
    await page.waitForURL(/\/sessions\/[0-9a-f-]{36}/, { timeout: 30_000 });
    await page.getByTestId('step-count').filter({ hasText: 'Step 1 of' }).waitFor({ timeout: 30_000 });

    expect(most).toBe(1);
    const sessions = unwrap(await app.app.services.api.listSessions({ ended: 0 }));
    expect(sessions.map((s) => s.workorderid)).toContain('WO-HANGING-1');
    expect(pageErrors).toEqual([]);
  });
});
