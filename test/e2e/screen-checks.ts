import fs from 'node:fs';
import path from 'node:path';
import axe, { type AxeResults } from 'axe-core';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { artifactsDir } from './browser.ts';

/** The three sizes every screen is checked at: a laptop, a small laptop, a portrait tablet. */
export const VIEWPORTS = [
  { name: '1366x768', width: 1366, height: 768 },
  { name: '1024x600', width: 1024, height: 600 },
  { name: '800x1280', width: 800, height: 1280 },
] as const;
export type Viewport = (typeof VIEWPORTS)[number];

/** Smallest touch target (WCAG 2.5.5), and the work-session controls' own, for gloved hands. */
export const MIN_TARGET_PX = 44;
export const MIN_SESSION_TARGET_PX = 48;
/** Base text is 16 px everywhere in the app, captions included (issue 28). */
export const MIN_TEXT_PX = 16;

/**
 * axe-core's violations on the page as it is now. Run in the page itself (the app has no frames),
 * reporting violations only: @axe-core/playwright's default ran a partial check per frame and finished it in
 * a new blank page each time, 0.8 s a check, 60% of screens.test.ts (95 of 150 s), for the same violations
 * (compared on a page with nine kinds of them, and on every screen); its legacy mode evaluated axe-core's
 * half a megabyte of source twice a check. It is put in once a document here and run again on the page as
 * it is now (screen-checks.test.ts checks a second run finds what changed since the first).
 */
export async function axeViolations(page: Page): Promise<AxeResults['violations']> {
  const present = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
  if (!present) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const inPage = (window as unknown as { axe: typeof axe }).axe;
    return (await inPage.run(document, { resultTypes: ['violations'] })).violations;
  });
}

/** The app's Larger text setting, on or off, as its toggle keeps it (in effect at the page's next load). */
export async function setLargerText(page: Page, on: boolean): Promise<void> {
  await page.evaluate((large) => {
    if (large) localStorage.setItem('fieldguide.textSize', 'large');
    else localStorage.removeItem('fieldguide.textSize');
  }, on);
}

export interface ScreenProblem {
  screen: string;
  viewport: string;
  kind: 'axe' | 'scroll' | 'target' | 'text' | 'cut' | 'bars';
  what: string;
}

/**
 * Runs every check on the screen as it is now and saves its screenshot under
 * test-results/e2e/screens/<viewport>/<name>.png. Returns the problems found (empty when it passes):
 * axe-core violations of impact serious or critical (and heading order, which axe rates moderate);
 * a horizontal scroll of the page or of the app's main area; a control smaller than 44 px (48 px in the
 * work session's controls); text below 16 px; a title cut with an ellipsis, a button's short label or a
 * date's or time's pieces broken over lines, facts side by side whose values are not on one line; the top
 * bar's sections on more than one row, the top bar on more than one at 1366 px, the status bar on more
 * than one at any size (its version whole or not shown).
 */
export async function checkScreen(page: Page, screen: string, viewport: Viewport): Promise<ScreenProblem[]> {
  const problems: ScreenProblem[] = [];
  const add = (kind: ScreenProblem['kind'], what: string) =>
    problems.push({ screen, viewport: viewport.name, kind, what });

  // Let transitions and lazy pictures settle before measuring.
  await page.waitForTimeout(150);
  const dir = path.join(artifactsDir, 'screens', viewport.name);
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${screen}.png`) });

  for (const violation of await axeViolations(page)) {
    if (violation.impact !== 'serious' && violation.impact !== 'critical' && violation.id !== 'heading-order') continue;
    const targets = violation.nodes
      .slice(0, 4)
      .map((node) => `${node.target.join(' ')}${node.failureSummary ? ` (${firstLine(node.failureSummary)})` : ''}`);
    add('axe', `${violation.id} [${violation.impact}]: ${violation.help} — ${targets.join('; ')}`);
  }

  const measured = await page.evaluate(measureInPage, {
    minTarget: MIN_TARGET_PX,
    minSessionTarget: MIN_SESSION_TARGET_PX,
    minText: MIN_TEXT_PX,
  });
  for (const line of measured.scroll) add('scroll', line);
  for (const line of measured.targets) add('target', line);
  for (const line of measured.text) add('text', line);
  for (const line of measured.cut) add('cut', line);
  for (const line of measured.bars) add('bars', line);
  return problems;
}

const firstLine = (text: string) => text.split('\n').slice(1, 2).join('').trim() || text.split('\n')[0]!.trim();

/** Runs inside the page: layout measurements no axe rule makes. */
export function measureInPage(limits: { minTarget: number; minSessionTarget: number; minText: number }): {
  scroll: string[];
  targets: string[];
  text: string[];
  cut: string[];
  bars: string[];
} {
  const describe = (el: Element): string => {
    const id = el.getAttribute('data-testid');
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    const label = el.getAttribute('aria-label');
    const testid = id ? `[data-testid=${id}]` : '';
    const classes =
      el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    return `${el.tagName.toLowerCase()}${testid}${classes} "${label ?? text}"`;
  };
  const visible = (el: Element): boolean => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) return false;
    return !el.closest('dialog:not([open]), [hidden], [inert], .visually-hidden');
  };
  // An open modal dialog makes everything behind it inert: only what is inside it counts then.
  const modal = document.querySelector('dialog[open]');
  const scope: ParentNode = modal ?? document;

  const scroll: string[] = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1)
    scroll.push(`the page scrolls sideways: ${doc.scrollWidth}px wide in ${doc.clientWidth}px`);
  // Only the app's main area scrolls: a page taller than the window scrolls its bars away (the top bar's
  // navigation, the status bar) with the step. Named with what reaches below the window's bottom.
  if (doc.scrollHeight > doc.clientHeight + 1) {
    const below = Array.from(document.body.querySelectorAll('*'))
      .filter((el) => {
        const outside = !el.closest('.app-main') || getComputedStyle(el).position === 'absolute';
        return outside && el.getBoundingClientRect().bottom + window.scrollY > doc.clientHeight + 1;
      })
      .slice(0, 3)
      .map(describe);
    scroll.push(
      `the page scrolls up and down: ${doc.scrollHeight}px tall in ${doc.clientHeight}px (${below.join('; ')})`,
    );
  }
  for (const el of Array.from(document.querySelectorAll('.app-main, header, footer, nav'))) {
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') {
      scroll.push(`${describe(el)} scrolls sideways: ${el.scrollWidth}px wide in ${el.clientWidth}px`);
    }
  }
  for (const el of Array.from(scope.querySelectorAll('button, a[href], input, select, textarea'))) {
    if (!visible(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.right > doc.clientWidth + 1 || box.left < -1)
      scroll.push(`${describe(el)} is off-screen (x ${Math.round(box.left)}–${Math.round(box.right)})`);
  }

  const targets: string[] = [];
  const controls = scope.querySelectorAll(
    'button, a[href], input:not([type=hidden]), select, textarea, summary, ' +
      '[role=button], [role=radio], [role=checkbox]',
  );
  for (const control of Array.from(controls)) {
    // A radio or checkbox is hit through its label; a file input through the button that opens it.
    let el: Element = control;
    if (control instanceof HTMLInputElement && ['radio', 'checkbox'].includes(control.type))
      el = control.closest('label') ?? control;
    if (control instanceof HTMLInputElement && control.type === 'file') continue;
    if (!visible(el)) continue;
    // A link inside a sentence is exempt (WCAG 2.5.5): its size is the text's.
    if (el.tagName === 'A' && getComputedStyle(el).display === 'inline' && el.closest('p, li, dd, td')) {
      const parent = el.parentElement!;
      if (parent.textContent!.trim().length > el.textContent!.trim().length) continue;
    }
    const box = el.getBoundingClientRect();
    const min = el.closest('[data-testid="session"] .session-controls, [data-testid="session-run-bar"]')
      ? limits.minSessionTarget
      : limits.minTarget;
    if (box.height < min - 0.5 || box.width < min - 0.5)
      targets.push(`${describe(el)} is ${Math.round(box.width)}×${Math.round(box.height)} px (at least ${min})`);
  }

  const text: string[] = [];
  const seenSizes = new Set<string>();
  const walker = document.createTreeWalker(
    scope instanceof Document ? document.body : (scope as Element),
    NodeFilter.SHOW_TEXT,
  );
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent?.trim()) continue;
    const el = node.parentElement;
    if (!el || !visible(el)) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < limits.minText - 0.01) {
      const key = `${describe(el)}@${size}`;
      if (seenSizes.has(key)) continue;
      seenSizes.add(key);
      text.push(`${describe(el)} is ${size.toFixed(1)} px`);
    }
  }

  const cut: string[] = [];
  for (const el of Array.from(scope.querySelectorAll('*'))) {
    const style = getComputedStyle(el);
    const clamped = style.webkitLineClamp !== 'none' && style.webkitLineClamp !== '';
    if ((style.textOverflow !== 'ellipsis' && !clamped) || !visible(el)) continue;
    if (el.scrollWidth > el.clientWidth + 1)
      cut.push(`${describe(el)} is cut: ${el.scrollWidth}px of text in ${el.clientWidth}px`);
    else if (clamped && el.scrollHeight > el.clientHeight + 1)
      cut.push(`${describe(el)} is cut: ${el.scrollHeight}px of lines in ${el.clientHeight}px`);
  }
  // The status bar's version gives way to the rest of the row: whole, or not shown at all (never clipped).
  const version = document.querySelector<HTMLElement>('[data-testid="status-version"]');
  if (version && visible(version) && getComputedStyle(version).visibility !== 'hidden') {
    if (version.scrollWidth > version.clientWidth + 1)
      cut.push(`the status bar's version is cut: ${version.scrollWidth}px of text in ${version.clientWidth}px`);
  }
  // An open dialog's text wraps inside it: a line wider than its box is cut at the dialog's edge (the
  // sign-out warning took the status bar's nowrap and lost the end of each line).
  for (const el of Array.from(document.querySelectorAll('dialog[open] :is(p, h1, h2, h3, li, label)'))) {
    if (visible(el) && el.scrollWidth > el.clientWidth + 1)
      cut.push(`${describe(el)} is cut in its dialog: ${el.scrollWidth}px of text in ${el.clientWidth}px`);
  }
  // How many lines a piece of a text node is on: the distinct tops of its boxes.
  const linesOf = (node: Node, start: number, end: number): number => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    const tops = Array.from(range.getClientRects())
      .filter((rect) => rect.width > 0)
      .map((rect) => Math.round(rect.top));
    return new Set(tops).size;
  };
  // A button's or a chip's short label (two or three words) on one line: "Take / the / quiz" is read a word
  // at a time, and a chip (a pill: a rounded box with a background, "Waiting to be sent") broken in three
  // reads as three.
  const pill = (el: Element): boolean => {
    const style = getComputedStyle(el);
    return parseFloat(style.borderTopLeftRadius) >= 99 && style.backgroundColor !== 'rgba(0, 0, 0, 0)';
  };
  const labelled = Array.from(scope.querySelectorAll('*')).filter((el) => el.matches('.button') || pill(el));
  for (const el of labelled) {
    const label = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (!visible(el) || label.length === 0 || label.length > 24) continue;
    const words = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = words.nextNode(); node; node = words.nextNode()) {
      if (!node.textContent?.trim() || !node.parentElement || !visible(node.parentElement)) continue;
      const lines = linesOf(node, 0, node.textContent.length);
      if (lines > 1) cut.push(`${describe(el)} is broken over ${lines} lines`);
    }
  }
  // A date or a time of day read in pieces: "05:20 / PM", "Dec / 3". It may break after a comma only
  // ("Dec 3, 2026, / 05:20 PM"), as lib/format.ts writes them. And a word broken inside itself ("Not
  // answere / d"): a column or a box too narrow for its words, read letter by letter. Letters only: a
  // path, an address or a work order number may break where it must. Only where it must: a work order
  // number (the tests' all begin "WO-") broken at a hyphen with room for it whole on a line of its box
  // ("WO- / SCREENS-1") reads as two numbers.
  const time = /\b\d{1,2}:\d{2}(?:\s?[AaPp]\.?[Mm]\.?)?/.source;
  const monthDay = /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\.?\s\d{1,2}\b/.source;
  const pieces = [
    { pattern: new RegExp(`${time}|${monthDay}`, 'g'), says: (lines: number) => `is broken over ${lines} lines` },
    { pattern: /\p{L}{2,}/gu, says: () => 'is broken inside the word' },
  ];
  const texts = document.createTreeWalker(
    scope instanceof Document ? document.body : (scope as Element),
    NodeFilter.SHOW_TEXT,
  );
  const workOrder = /\bWO-[A-Z0-9][A-Z0-9-]*/g;
  for (let node = texts.nextNode(); node; node = texts.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent || !el || !visible(el)) continue;
    for (const match of node.textContent.matchAll(workOrder)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = Array.from(range.getClientRects()).filter((rect) => rect.width > 0);
      const width = rects.reduce((sum, rect) => sum + rect.width, 0);
      // The box its lines are laid in: the nearest ancestor that is not inline.
      let box: Element = el;
      while (box.parentElement && getComputedStyle(box).display === 'inline') box = box.parentElement;
      if (new Set(rects.map((rect) => Math.round(rect.top))).size > 1 && width <= box.clientWidth)
        cut.push(`${describe(el)}: the work order number "${match[0]}" is broken with room for it on a line`);
    }
    for (const { pattern, says } of pieces) {
      for (const match of node.textContent.matchAll(pattern)) {
        const lines = linesOf(node, match.index, match.index + match[0].length);
        if (lines > 1) cut.push(`${describe(el)}: "${match[0]}" ${says(lines)}`);
      }
    }
  }
  // Facts side by side (a label over its value, in a list) are read across: their values on one line. A
  // label of two lines ("Waiting to / download") put its value a line below the others in the row.
  for (const list of Array.from(scope.querySelectorAll('dl'))) {
    if (!visible(list)) continue;
    const rows = new Map<number, number[]>();
    for (const fact of Array.from(list.children)) {
      const value = fact.querySelector(':scope > dd');
      if (fact.tagName !== 'DIV' || !value || !visible(value)) continue;
      const top = Math.round(fact.getBoundingClientRect().top);
      rows.set(top, [...(rows.get(top) ?? []), value.getBoundingClientRect().top]);
    }
    for (const tops of rows.values()) {
      if (tops.length > 1 && Math.max(...tops) - Math.min(...tops) > 2)
        cut.push(`${describe(list)}: the values of a row are not on one line`);
    }
  }
  // The bars take room from every screen: the sections in one row (a portrait tablet's too), at a
  // laptop's width the whole top bar in one (from a small laptop's 1024 px: a second row there is a tenth
  // of its 600 px), and the status bar at every size (a portrait tablet's second row cut the version in
  // two at the window's edge); Larger text too, whatever the chip says.
  const bars: string[] = [];
  const rows = (els: Element[]): number => {
    const boxes = els.filter(visible).map((el) => el.getBoundingClientRect());
    boxes.sort((a, b) => a.top - b.top);
    let count = 0;
    let bottom = Number.NEGATIVE_INFINITY;
    for (const box of boxes) {
      if (box.top >= bottom - 1) count++;
      bottom = Math.max(bottom, box.bottom);
    }
    return count;
  };
  const sections = Array.from(document.querySelectorAll('header.top-bar nav a'));
  if (rows(sections) > 1) bars.push(`the top bar's ${sections.length} sections take ${rows(sections)} rows`);
  const topBar = document.querySelector('header.top-bar');
  if (topBar && !modal && window.innerWidth >= 1024 && rows(Array.from(topBar.children)) > 1)
    bars.push(`the top bar takes ${rows(Array.from(topBar.children))} rows at ${window.innerWidth} px`);
  const statusBar = document.querySelector('footer.status-bar');
  if (statusBar && !modal && rows(Array.from(statusBar.children)) > 1)
    bars.push(`the status bar takes ${rows(Array.from(statusBar.children))} rows at ${window.innerWidth} px`);
  return {
    scroll,
    targets: targets.slice(0, 12),
    text: text.slice(0, 12),
    cut: cut.slice(0, 12),
    bars,
  };
}

/**
 * On how many lines `text` is drawn inside the first element `selector` matches (0: not there): a work
 * order number split at a hyphen ("WO-" at a line's end, "2024-0117" on the next) reads as two numbers.
 */
export async function linesOfText(page: Page, selector: string, text: string): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((root, wanted) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf(wanted);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + wanted.length);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      }
      return 0;
    }, text);
}

export function formatProblems(problems: ScreenProblem[]): string {
  return problems.map((p) => `${p.viewport} ${p.screen} ${p.kind}: ${p.what}`).join('\n');
}

/**
 * The screen `show` brings up, checked at each of the three sizes with the Larger text setting on (the
 * status bar's text-size button), then the setting and `restore` size put back. Returns the problems found.
 */
export async function checkLargerText(
  page: Page,
  screen: string,
  show: (viewport: Viewport) => Promise<void>,
  restore: { width: number; height: number },
): Promise<ScreenProblem[]> {
  const toggle = page.getByTestId('text-size');
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  const problems: ScreenProblem[] = [];
  try {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await show(viewport);
      problems.push(...(await checkScreen(page, `larger-text-${screen}`, viewport)));
    }
  } finally {
    await page.setViewportSize(restore);
    if ((await toggle.getAttribute('aria-pressed')) === 'true') await toggle.click();
  }
  return problems;
}

/**
 * The screen checks at every size with Larger text, `shown` scrolled into view first, the window then back
 * at `restore`: a screen expected to hold no problem (a failure lists them).
 */
export async function expectLargerTextFits(
  page: Page,
  screen: string,
  shown: Locator,
  restore: { width: number; height: number } = { width: 1280, height: 900 },
): Promise<void> {
  const problems = await checkLargerText(
    page,
    screen,
    async () => void (await shown.scrollIntoViewIfNeeded()),
    restore,
  );
  expect(formatProblems(problems)).toBe('');
}

/**
 * The screen checks at every size, with and without Larger text, a screenshot of each: `shown` scrolled into
 * view once `ready` says the page is read again. Larger text is set as its toggle keeps it and the page read
 * again (the run mode hides the status bar that holds the toggle); at the end it is off and the window `restore`.
 */
export async function expectFitsBothTextSizes(
  page: Page,
  name: string,
  shown: () => Locator,
  ready: () => Promise<void>,
  restore: { width: number; height: number },
): Promise<void> {
  const problems: ScreenProblem[] = [];
  for (const large of [false, true]) {
    await setLargerText(page, large);
    await page.setViewportSize(restore);
    await page.reload();
    await ready();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await shown().scrollIntoViewIfNeeded();
      const screen = `${name}${large ? '-larger' : ''}`;
      await page.screenshot({ path: path.join(artifactsDir, `${screen}-${viewport.name}.png`) });
      problems.push(...(await checkScreen(page, screen, viewport)));
    }
  }
  await page.evaluate(() => localStorage.removeItem('fieldguide.textSize'));
  await page.setViewportSize(restore);
  await page.reload();
  await ready();
  expect(formatProblems(problems)).toBe('');
}
