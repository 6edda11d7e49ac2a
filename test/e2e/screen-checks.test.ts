import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { axeViolations, checkScreen, VIEWPORTS } from './screen-checks.ts';
import { runModeProblems } from './run-mode-checks.ts';

// The checks every screen passes (screens.test.ts, run-mode tests) must find what they look for: a page
// with one of each planted fails each of them, a clean one passes. In Chromium, without the app.
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
  await page.setViewportSize(VIEWPORTS[1]);
});
afterAll(async () => {
  await browser?.close();
});

const CLEAN = `<!doctype html><html lang="en"><head><title>Clean</title>
  <style>body { font: 16px sans-serif; margin: 0 }
  button { font: inherit; min-width: 48px; min-height: 48px }</style></head>
  <body><main><h1>Step 4</h1><p>Check the brake pads.</p><button type="button">Next step</button>
  <dl><dt>Ended</dt><dd style="width: 150px">Dec&nbsp;3, 2026, 05:20&nbsp;PM</dd></dl>
  <dl style="display: flex; gap: 12px"><div><dt>Media files</dt><dd>282</dd></div>
  <div style="width: 140px"><dt>Guides kept</dt><dd>14 of 14</dd></div></dl>
  <p style="width: 110px; overflow-wrap: anywhere">Not answered yet, WO-2024-0117-REAR-AXLE</p></main></body></html>`;

const PLANTED = `<!doctype html><html><head>
  <style>body { font: 16px sans-serif; margin: 0 } .wide { width: 2000px } .small { font-size: 11px }
  .pale { color: #bbb; background: #fff } .tiny { width: 20px; height: 20px }
  .title { width: 80px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis }</style></head>
  <body><main><h1>Step 4</h1><h4>Skipped heading levels</h4>
  <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
  <button type="button" class="tiny"></button>
  <p class="pale">Torque to 25 Nm</p><p class="small">Small print</p>
  <p class="title">A long guide title that does not fit</p>
  <button type="button" class="button" style="width: 50px; font: inherit">Take the quiz</button>
  <span style="display: inline-block; width: 60px; border-radius: 999px; background: #fff4e0">Waiting to be sent</span>
  <dl><dt>Ended</dt><dd style="width: 150px">Dec 3, 2026, 05:20 PM</dd></dl>
  <dl style="display: flex; gap: 12px"><div><dt>Media files</dt><dd>282</dd></div>
  <div style="width: 90px"><dt>Waiting to download</dt><dd>0</dd></div></dl>
  <p style="width: 40px; overflow-wrap: anywhere">Not answered</p>
  <div class="wide">Wider than the window</div></main></body></html>`;

describe('the screen checks', () => {
  it('pass a clean page', async () => {
    await page.setContent(CLEAN);
    expect(await checkScreen(page, 'checks-clean', VIEWPORTS[1])).toEqual([]);
    expect(await runModeProblems(page)).toEqual([]);
  });

  it('find each planted problem: axe, sideways scroll, small target and text, cut, broken text, facts', async () => {
    await page.setContent(PLANTED);
    const problems = await checkScreen(page, 'checks-planted', VIEWPORTS[1]);
    const axe = problems.filter((p) => p.kind === 'axe').map((p) => p.what.split(' ')[0]);
    expect(axe.sort()).toEqual([
      'button-name',
      'color-contrast',
      'document-title',
      'heading-order',
      'html-has-lang',
      'image-alt',
    ]);
    const kinds = (kind: string) => problems.filter((p) => p.kind === kind).map((p) => p.what);
    expect(kinds('scroll')).toEqual([expect.stringContaining('the page scrolls sideways')]);
    expect(kinds('target')).toEqual([expect.stringContaining('is 20×20 px (at least 44)')]);
    expect(kinds('text')).toEqual([expect.stringContaining('"Small print" is 11.0 px')]);
    expect(kinds('cut')).toEqual([
      expect.stringContaining('p.title "A long guide title'),
      expect.stringMatching(/button\.button "Take the quiz" is broken over 3 lines/),
      expect.stringMatching(/span "Waiting to be sent" is broken over \d lines/),
      expect.stringMatching(/dd "Dec 3, 2026, 05:20 PM": "05:20 PM" is broken over 2 lines/),
      expect.stringMatching(/p "Not answered": "answered" is broken inside the word/),
      expect.stringMatching(/dl "Media files282 Waiting to download0": the values of a row are not on one line/),
    ]);
    // The run mode's check counts every axe violation, whatever its impact.
    const inRunMode = await runModeProblems(page);
    expect(inRunMode.filter((line) => line.startsWith('axe ')).length).toBeGreaterThanOrEqual(axe.length);
  });

  it('finds with axe-core, put in the page once, what changed in the page since its last run', async () => {
    await page.setContent(CLEAN);
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => {
      (window as unknown as { axe: { putInBefore?: boolean } }).axe.putInBefore = true;
      const pale = document.createElement('p');
      pale.textContent = 'Torque to 25 Nm';
      pale.style.color = '#bbb';
      document.querySelector('main')!.append(pale, document.createElement('img'));
    });
    expect((await axeViolations(page)).map((violation) => violation.id).sort()).toEqual([
      'color-contrast',
      'image-alt',
    ]);
    // Once a document: the second run used the axe-core the first one put in.
    expect(await page.evaluate(() => (window as unknown as { axe: { putInBefore?: boolean } }).axe.putInBefore)).toBe(
      true,
    );
  });
});
