import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  LAUNCH_STORAGE_KEY,
  rpcPath,
  webMediaUrl,
  type AppMethod,
  type MediaOptions,
} from '../../electron/contract.ts';
import { readKeyOf, startWebShell, type RunningWebShell } from '../../electron/web/server.ts';
import type { ServicesDeps } from '../../electron/core/services.ts';
import { makeServices } from '../helpers/services.ts';
import { unwrap } from '../helpers/library.ts';

const root = path.resolve(import.meta.dirname, '../..');
export const rendererDir = path.join(root, 'out', 'renderer');
export const artifactsDir = path.join(root, 'test-results', 'e2e');

/** Debian's Chromium, as CI installs it; CHROMIUM_PATH overrides. `extraArgs`: a fake camera, say. */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) {
    throw new Error(`Chromium is not at ${executablePath}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}

/**
 * The web shell over real core services, serving the renderer that `npm run build` made. `overrides`
 * replace services dependencies (e.g. a `startDemoWorkshop` that hands the test the demo site); `dataDir`
 * a data folder the test prepared (a temp folder otherwise).
 */
export async function startApp(
  overrides: Partial<ServicesDeps> = {},
  dataDir?: string,
): Promise<{ shell: RunningWebShell; app: ReturnType<typeof makeServices>; stop: () => Promise<void> }> {
  if (!fs.existsSync(path.join(rendererDir, 'index.html'))) {
    throw new Error(`The renderer is not built (${rendererDir}): run npm run build first`);
  }
  const app = makeServices(dataDir, overrides);
  const shell = await startWebShell({ services: app.services, staticDir: rendererDir });
  return {
    shell,
    app,
    stop: async () => {
      await shell.close();
      await app.dispose();
    },
  };
}

/**
 * A page of its own browser context (its own storage and viewport) that holds the web
 * shell's launch secret, as a page opened from the printed address does (in its origin's storage,
 * src/bridge/launch.ts; test/security/launch-secret.e2e.test.ts opens the printed address itself).
 */
export async function appPage(
  browser: Browser,
  shell: RunningWebShell,
  viewport: { width: number; height: number },
  /** The screen's pixels per CSS pixel: 2 is a window of twice the size zoomed to 200 %. */
  deviceScaleFactor?: number,
): Promise<Page> {
  const context = await browser.newContext({ viewport, deviceScaleFactor });
  const kept = JSON.stringify({ secret: shell.secret, readKey: readKeyOf(shell.secret) });
  await context.addInitScript(
    ({ origin, key, value }) => {
      if (location.origin === origin) localStorage.setItem(key, value);
    },
    { origin: shell.url, key: LAUNCH_STORAGE_KEY, value: kept },
  );
  const page = await context.newPage();
  holdScreenshots(page);
  return page;
}

/**
 * Whether the tests write their screenshots under test-results/e2e: where a person runs them, and in CI (CI=true)
 * only with FIELDGUIDE_SCREENSHOTS=1. No test reads them; in CI nobody looks at them, and rendering and encoding a
 * few hundred PNGs cost its e2e project about a minute of its two cores (measured per call: 70–100 ms each).
 */
export const WRITES_SCREENSHOTS = process.env.CI !== 'true' || process.env.FIELDGUIDE_SCREENSHOTS === '1';
let screenshotsHeld = false;

/** Where screenshots are not written, a page's screenshot to a file is not taken (every page shares the method). */
function holdScreenshots(page: Page): void {
  if (WRITES_SCREENSHOTS || screenshotsHeld) return;
  screenshotsHeld = true;
  const shared = Object.getPrototypeOf(page) as { screenshot: Page['screenshot'] };
  const take = shared.screenshot;
  shared.screenshot = async function (this: Page, options?: Parameters<Page['screenshot']>[0]) {
    return options?.path ? Buffer.alloc(0) : take.call(this, options);
  };
}

/** A media address of the web shell, with the read key the app's own page puts in it. */
export function appMediaUrl(shell: RunningWebShell, siteUrl: string, options: MediaOptions = {}): string {
  return new URL(webMediaUrl(siteUrl, { ...options, key: readKeyOf(shell.secret) }), shell.url).toString();
}

/** A screenshot of a whole view: the app scrolls inside <main>, so the window is made as tall as it. */
export async function fullViewShot(page: Page, name: string): Promise<void> {
  if (!WRITES_SCREENSHOTS) return page.setViewportSize({ width: 1280, height: 900 });
  const height = await page.evaluate(() => document.querySelector('.app-main')!.scrollHeight + 100);
  await page.setViewportSize({ width: 1280, height: Math.min(height, 6000) });
  await page.waitForTimeout(300);
  await page.screenshot({ path: artifact(name) });
  await page.setViewportSize({ width: 1280, height: 900 });
}

export function artifact(name: string): string {
  fs.mkdirSync(artifactsDir, { recursive: true });
  return path.join(artifactsDir, name);
}

/**
 * Chromium on the app in the web shell, its demo workshop started through `demo` (so the test can stop
 * and restart the site); page errors and console errors go to `pageErrors`.
 */
export async function openDemoApp(
  demo: { startDemoWorkshop: ServicesDeps['startDemoWorkshop'] },
  viewport: { width: number; height: number },
  pageErrors: string[],
  overrides: Partial<ServicesDeps> = {},
  chromiumArgs: readonly string[] = [],
): Promise<{ browser: Browser; app: Awaited<ReturnType<typeof startApp>>; page: Page }> {
  const started = startApp({ ...overrides, startDemoWorkshop: demo.startDemoWorkshop });
  const [browser, app] = await Promise.all([launchChromium(chromiumArgs), started]);
  const page = await appPage(browser, app.shell, viewport);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  return { browser, app, page };
}

/** `openDemoApp`, then connected to its demo workshop and a first sync run, as the core's own calls do them. */
export async function openSyncedDemoApp(
  ...args: Parameters<typeof openDemoApp>
): Promise<Awaited<ReturnType<typeof openDemoApp>>> {
  const opened = await openDemoApp(...args);
  const { api } = opened.app.app.services;
  unwrap(await api.connectDemo());
  unwrap(await api.syncNow());
  return opened;
}

/** The app and browser a test file works with, and the page errors seen (set once `beforeAll` has run). */
export interface OpenedApp {
  browser: Browser;
  app: Awaited<ReturnType<typeof startApp>>;
  page: Page;
  pageErrors: string[];
}

/**
 * One app and one browser for a test file: opened before its tests (connected to the demo workshop and
 * synced unless `synced: false`; Chromium given `chromiumArgs` too), the page on the app's start, and closed
 * after them.
 */
export function demoAppForFile(
  demo: { startDemoWorkshop: ServicesDeps['startDemoWorkshop'] },
  viewport: { width: number; height: number },
  options: { synced?: boolean; overrides?: Partial<ServicesDeps>; chromiumArgs?: readonly string[] } = {},
): OpenedApp {
  const opened = { pageErrors: [] as string[] } as OpenedApp;
  beforeAll(async () => {
    const open = options.synced === false ? openDemoApp : openSyncedDemoApp;
    Object.assign(opened, await open(demo, viewport, opened.pageErrors, options.overrides, options.chromiumArgs));
    await opened.page.goto(opened.app.shell.url);
  });
  afterAll(async () => {
    await opened.browser?.close();
    await opened.app?.stop();
  });
  return opened;
}

/**
 * Presses Send now in the sync centre unless the outbox has already gone by itself: the site answering
 * again wakes the outbox at once (issue 13), and then the button is rightly disabled. The check and the
 * press happen in one step in the page, so the outbox cannot empty between them.
 */
export async function sendNowUnlessGone(page: Page): Promise<void> {
  // The button is disabled until the outbox's summary is read: wait for it to be pressable or for nothing to be left.
  await page.waitForFunction(
    () =>
      document.querySelector<HTMLButtonElement>('[data-testid="outbox-send-now"]')?.disabled === false ||
      document.querySelector('[data-testid="status-chip"]')?.getAttribute('data-unsent') === '0',
    null,
    { timeout: 30_000 },
  );
  await page.evaluate(() => {
    const button = document.querySelector<HTMLButtonElement>('[data-testid="outbox-send-now"]');
    if (button && !button.disabled) button.click();
  });
}

/**
 * For `page.addInitScript`: every write of the window's IndexedDB refused as a full disk refuses it
 * (QuotaExceededError; reads still answer), the drafts and the photos taken among them.
 */
export const refuseDraftWrites = (): void => {
  const full = () => {
    throw new DOMException('The disk is full.', 'QuotaExceededError');
  };
  IDBObjectStore.prototype.put = full;
  IDBObjectStore.prototype.add = full;
};

/** Connects the page to the demo workshop and syncs it from the sync centre, waiting for the outcome. */
export async function connectAndSyncDemo(page: Page, shellUrl: string): Promise<void> {
  await page.goto(shellUrl);
  await page.getByTestId('connect-demo').click();
  await page.waitForURL(new URL('/', shellUrl).toString());
  await page.getByTestId('nav-sync').click();
  const answered = page.waitForResponse((response) => response.url().endsWith('/rpc/syncNow'), { timeout: 90_000 });
  await page.getByTestId('sync-now').click();
  await answered;
  await page.getByTestId('sync-outcome').waitFor();
}

/** Connects the app to the demo workshop and syncs it from the sync centre, ending on the library. */
export async function syncDemoWorkshop(page: Page, shellUrl: string): Promise<void> {
  await connectAndSyncDemo(page, shellUrl);
  await page.getByTestId('nav-library').click();
}

/**
 * Runs `act` with the web shell's answers to one App API method held back, as a busy connection would hold
 * them (its events come on their own connection meanwhile): `ms` each, or `'while acting'`, until `act` has
 * ended, for an `act` that looks at the page while the app waits (after a fixed time, a busy machine's `act`
 * saw the answer's page instead). Resolves once `act` has ended and every answer held has reached the page.
 */
export async function withAnswersHeld(
  page: Page,
  method: AppMethod,
  hold: number | 'while acting',
  act: () => Promise<void>,
): Promise<void> {
  const route = `**${rpcPath(method)}`;
  let [asked, answered] = [0, 0];
  let acted = (): void => {};
  const actEnded = new Promise<void>((resolve) => (acted = resolve));
  await page.route(route, async (held) => {
    asked++;
    const response = await held.fetch();
    await (hold === 'while acting' ? actEnded : new Promise((resolve) => setTimeout(resolve, hold)));
    await held.fulfill({ response });
    answered++;
  });
  try {
    await act().finally(acted);
    await expect.poll(() => asked > 0 && answered === asked, { timeout: 10_000 }).toBe(true);
  } finally {
    await page.unroute(route);
  }
}

/**
 * A gloved finger's double tap on `target`: a click, then 200 ms on, the second click as Chromium counts it
 * (its detail 2) at the same spot, whatever the first put there. Playwright's `click({ clickCount: 2 })`
 * would make two clicks of counts 1 and 2 at once.
 */
export async function gloveDoubleTap(page: Page, target: Locator): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const box = (await target.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForTimeout(200);
  await page.mouse.down({ clickCount: 2 });
  await page.mouse.up({ clickCount: 2 });
}
