import type { GuideDetail, GuideStep } from '../../electron/contract.ts';

/** A run of a guide's steps that belong to one guide: a prerequisite's (with its title), or the guide's own. */
export interface StepSection {
  guideid: number;
  /** The prerequisite's title ("Before you begin: <title>"); null for the guide's own steps. */
  prerequisite: string | null;
  /**
   * Each step with its place in the whole guide (`index`, from 0) and its number (from 1): counted through the
   * whole guide, prerequisites and all, as a work session and the site's own guide page count them. Numbered
   * from 1 in each section, "step 4" on the guide page was step 23 in the session (a walk of a long guide).
   */
  steps: { step: GuideStep; index: number; number: number }[];
}

/**
 * The guide's steps in sections: each prerequisite's first, in their order, then the guide's own (the
 * order the core gives them). A step without a guide of its own is the guide's.
 */
export function stepSections(guide: Pick<GuideDetail, 'guideid' | 'prerequisites' | 'steps'>): StepSection[] {
  const sections: StepSection[] = [];
  guide.steps.forEach((step, index) => {
    const guideid = step.guideid ?? guide.guideid;
    let section = sections.at(-1);
    if (!section || section.guideid !== guideid) {
      const title = guide.prerequisites.find((p) => p.guideid === guideid)?.title ?? `Guide ${guideid}`;
      section = { guideid, prerequisite: guideid === guide.guideid ? null : title, steps: [] };
      sections.push(section);
    }
    section.steps.push({ step, index, number: index + 1 });
  });
  return sections;
}

/** The prerequisite a step belongs to, by title, when it is not one of the guide's own. */
export function prerequisiteOf(guide: Pick<GuideDetail, 'guideid' | 'prerequisites'>, step: GuideStep): string | null {
  const guideid = step.guideid ?? guide.guideid;
  if (guideid === guide.guideid) return null;
  return guide.prerequisites.find((p) => p.guideid === guideid)?.title ?? `Guide ${guideid}`;
}

/** The time a guide takes, in words: "20–40 minutes", "1–2 hours", "about 45 minutes". */
export function timeRangeText(range: { min: number; max: number }): string {
  const minutes = (seconds: number) => Math.round(seconds / 60);
  const [low, high] = [minutes(range.min), minutes(range.max)];
  const hours = (n: number) => `${n / 60} hour${n === 60 ? '' : 's'}`;
  const inMinutes = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;
  if (low === high || low === 0) return `about ${high >= 120 && high % 60 === 0 ? hours(high) : inMinutes(high)}`;
  if (high >= 120 && low % 60 === 0 && high % 60 === 0) return `${low / 60}–${high / 60} hours`;
  return `${low}–${high} minutes`;
}
