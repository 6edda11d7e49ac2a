import type { Page } from 'playwright-core';
import type { RunningSite } from '../../server/site.ts';
import { api, signIn } from '../server/helpers.ts';
import { axeViolations, measureInPage, MIN_SESSION_TARGET_PX, MIN_TARGET_PX } from './screen-checks.ts';

/** The run mode's own bar (issue 28): base text of 16 px, no smaller. */
export const RUN_MODE_MIN_TEXT_PX = 16;

/**
 * What is wrong with the run mode as it is on screen now: every axe-core violation of any impact, text
 * under 16 px, a control under 44 px (48 in the session's controls and step bar), a sideways scroll.
 */
export async function runModeProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  for (const violation of await axeViolations(page)) {
    const targets = violation.nodes.slice(0, 4).map((node) => node.target.join(' '));
    problems.push(`axe ${violation.id} [${violation.impact}]: ${violation.help} — ${targets.join('; ')}`);
  }
  const measured = await page.evaluate(measureInPage, {
    minTarget: MIN_TARGET_PX,
    minSessionTarget: MIN_SESSION_TARGET_PX,
    minText: RUN_MODE_MIN_TEXT_PX,
  });
  for (const kind of ['scroll', 'targets', 'text', 'cut', 'bars'] as const)
    for (const line of measured[kind]) problems.push(`${kind}: ${line}`);
  return problems;
}

/**
 * The run header as it stands: on how many rows its controls are, and the words of its sync line. Two
 * rows at 1024x600 with Larger text took 56 px from the step. A row is what stands side by side: a sync line
 * on two lines beside the buttons begins higher than they do, in the same row.
 */
export async function runHeader(page: Page): Promise<{ rows: number; sync: string | undefined }> {
  return page.evaluate(() => {
    const controls = [...document.querySelectorAll('.session-header .session-controls > *')]
      .map((el) => el.getBoundingClientRect())
      .sort((a, b) => a.top - b.top);
    let rows = 0;
    let bottom = -Infinity;
    for (const box of controls) {
      if (box.top >= bottom - 1) rows++;
      bottom = box.top >= bottom - 1 ? box.bottom : Math.max(bottom, box.bottom);
    }
    return {
      rows,
      sync: document.querySelector('[data-testid="session-sync"]')?.textContent?.replace(/\s+/g, ' ').trim(),
    };
  });
}

/** Where a part of the step stands: its box against the window, and what is on top at its centre. */
export interface Placed {
  what: string;
  found: boolean;
  inside: boolean;
  onTop: boolean;
  box: string;
  hit: string;
}

export async function placed(sized: Page, parts: Record<string, string>): Promise<Placed[]> {
  return sized.evaluate((selectors) => {
    const describe = (el: Element | null) =>
      el
        ? `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${(el.textContent ?? '').trim().slice(0, 30)}"`
        : 'nothing';
    return Object.entries(selectors).map(([what, selector]) => {
      const el = document.querySelector(selector);
      if (!el) return { what, found: false, inside: false, onTop: false, box: '', hit: '' };
      const box = el.getBoundingClientRect();
      const vw = document.documentElement.clientWidth;
      const vh = document.documentElement.clientHeight;
      const inside =
        box.width > 0 && box.height > 0 && box.left >= 0 && box.top >= 0 && box.right <= vw && box.bottom <= vh;
      // On top at its centre and at its corners (2 px in): a bar over its last line, or a scroller that
      // clips it, shows there even when the centre is clear.
      const inset = Math.min(2, box.width / 4, box.height / 4);
      const points: [number, number][] = [
        [box.left + box.width / 2, box.top + box.height / 2],
        [box.left + inset, box.top + inset],
        [box.right - inset, box.top + inset],
        [box.left + inset, box.bottom - inset],
        [box.right - inset, box.bottom - inset],
      ];
      // A checkbox's or radio's own label is the same control.
      const mine = (at: Element | null) =>
        at !== null && (el.contains(at) || at.contains(el) || (at as HTMLLabelElement).control === el);
      const hits = points.map(([x, y]) => document.elementFromPoint(x, y));
      const hit = hits.find((at) => !mine(at)) ?? hits[0] ?? null;
      const onTop = hits.every(mine);
      const round = (n: number) => Math.round(n);
      return {
        what,
        found: true,
        inside,
        onTop,
        box: `${round(box.left)},${round(box.top)} ${round(box.width)}×${round(box.height)} in ${vw}×${vh}`,
        hit: describe(hit),
      };
    });
  }, parts);
}

/** What is wrong with `parts` where they stand: missing, not whole in the window, or covered (each said at `where`). */
export async function placedProblems(page: Page, parts: Record<string, string>, where: string): Promise<string[]> {
  return (await placed(page, parts)).flatMap((part) => {
    if (!part.found) return [`${where}: no ${part.what}`];
    if (!part.inside) return [`${where}: ${part.what} not whole in view (${part.box})`];
    if (!part.onTop) return [`${where}: ${part.what} covered by ${part.hit}`];
    return [];
  });
}

/** The top of the step on screen: what must be whole and uncovered at every size. */
export const STEP_PARTS = {
  'hazard strip': '[data-testid="session-step"] [data-testid="hazard-strip"]',
  'step title': '[data-testid="session-step"] [data-testid="step-heading"]',
  'first instruction line': '[data-testid="session-step"] .step-line',
};

/**
 * What of the step's fields stands outside the room between the run header and the step bar: each field's
 * label, its controls (a file field's buttons: a photo's Remove went under the bar) and its note line, empty or
 * not (the room its words come in as one types: "Not saved yet · kept on this computer" came in under the step
 * bar at 1024x600 with Larger text). Said at `where`.
 */
export async function fieldsOutOfRoom(page: Page, where: string): Promise<string[]> {
  const out = await page.evaluate(() => {
    const header = document.querySelector('.session-header')!.getBoundingClientRect();
    const bar = document.querySelector('[data-testid="session-run-bar"]')!.getBoundingClientRect();
    const fields = document.querySelectorAll('[data-testid="step-form"] [data-testid="form-field"]');
    return (
      [...fields]
        .flatMap((field) => [
          ...field.querySelectorAll(
            '.form-label, input:not([type=file]), select, textarea, label.file-button, button, .form-note',
          ),
        ])
        .map((el) => [el, el.getBoundingClientRect()] as const)
        // Shown (a camera's buttons wait hidden until it opens), and out of the room.
        .filter(([, box]) => box.width > 0 && (box.top < header.bottom - 1 || box.bottom > bar.top + 1))
        .map(([el, box]) => {
          const field = el.closest('[data-testid="form-field"]')!;
          const what = field.querySelector('.form-label')?.textContent?.trim() ?? field.getAttribute('data-type');
          const words = el.matches('.form-note') ? ` "${(el.textContent ?? '').trim()}"` : '';
          const at = `${Math.round(box.top)}-${Math.round(box.bottom)}`;
          return `"${what}" ${el.tagName.toLowerCase()}.${el.className}${words} at ${at}, the step bar at ${bar.top}`;
        })
    );
  });
  return out.map((line) => `${where}: ${line}`);
}

/**
 * The author revises the forklift inspection's step 4 on the site (`guideid`): its form no longer asks for Fork
 * condition, and asks whether both fork locking pins are engaged. What makes a session's "site revised" notice.
 * `change`: another revision of the form, from the field it has to the box it then asks for instead.
 */
export async function reviseForkForm(
  site: RunningSite,
  guideid: number,
  change = { from: 'Fork condition', to: 'Both fork locking pins engaged' },
): Promise<void> {
  const { token } = await signIn(site, 'author');
  const forms = (await api(site, 'GET', `/step_forms/guideid/${guideid}`, { token })).body as {
    stepid: number;
    fields: { label: string }[];
  }[];
  const forks = forms.find((form) => form.fields.some((field) => field.label === change.from))!;
  const json = { fields: [{ field_type: 'Checkbox', label: change.to }] };
  const { status } = await api(site, 'POST', `/step_forms/${forks.stepid}`, { token, json });
  if (status !== 201) throw new Error(`the site answered the revised form with ${status}`);
}
