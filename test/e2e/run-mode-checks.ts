import type { Page } from 'playwright-core';
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
 * rows at 1024x600 with Larger text took 56 px from the step.
 */
export async function runHeader(page: Page): Promise<{ rows: number; sync: string | undefined }> {
  return page.evaluate(() => {
    const controls = [...document.querySelectorAll('.session-header .session-controls > *')];
    return {
      rows: new Set(controls.map((el) => Math.round(el.getBoundingClientRect().top))).size,
      sync: document.querySelector('[data-testid="session-sync"]')?.textContent?.replace(/\s+/g, ' ').trim(),
    };
  });
}
