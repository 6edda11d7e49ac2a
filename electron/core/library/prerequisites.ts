import type { GuideDetail, GuideStep, StepForm } from '../../contract.ts';

/** What a prerequisite guide brings to a guide that needs it. */
export interface Prerequisite {
  guideid: number;
  title: string;
  /** Its steps with their forms, its own prerequisites' first, each named by its own guide. */
  steps: GuideStep[];
  /** The guides its steps come from before its own, in order, with their titles. */
  prerequisites: { guideid: number; title: string }[];
}

/** A stored (or just fetched) guide as a prerequisite of another. */
export const asPrerequisite = (detail: GuideDetail): Prerequisite => ({
  guideid: detail.guideid,
  title: detail.title,
  steps: detail.steps,
  prerequisites: detail.prerequisites,
});

/**
 * The guide as the technician follows it: the steps of each prerequisite first, in the guide's order of
 * them (a guide needed twice, by the guide and by one of its prerequisites, only where it is first
 * needed), then its own steps in their order. `prerequisites` then names every guide whose steps come
 * first, in that order; a prerequisite that could not be read is still named, with no steps. A step's
 * form is the one `forms` has for it (the guide's own step forms cover its prerequisites' steps on a
 * Dozuki site), else the one its own guide had; none when it has no field.
 */
export function withPrerequisites(
  detail: GuideDetail,
  prerequisites: readonly Prerequisite[],
  forms: ReadonlyMap<number, StepForm>,
): GuideDetail {
  const named: { guideid: number; title: string }[] = [];
  const steps: GuideStep[] = [];
  const seen = new Set<number>([detail.guideid]);
  for (const prereq of prerequisites) {
    const titles = new Map(prereq.prerequisites.map((p) => [p.guideid, p.title]));
    titles.set(prereq.guideid, prereq.title);
    for (const guideid of [...prereq.prerequisites.map((p) => p.guideid), prereq.guideid]) {
      if (seen.has(guideid)) continue;
      seen.add(guideid);
      named.push({ guideid, title: titles.get(guideid) ?? `Guide ${guideid}` });
      for (const step of prereq.steps) {
        if (step.guideid === guideid) steps.push({ ...step, form: formOf(step, forms) });
      }
    }
  }
  const own = detail.steps
    .filter((step) => step.guideid === detail.guideid)
    .map((step) => ({ ...step, form: formOf(step, forms) }));
  return { ...detail, prerequisites: named, steps: [...steps, ...own] };
}

/**
 * A step's form, or null when it asks for nothing: a form the site emptied (its author took every field out)
 * was shown as "This step has a form to fill in during a work session: ." and an empty record with a Save.
 */
function formOf(step: GuideStep, forms: ReadonlyMap<number, StepForm>): StepForm | null {
  const form = forms.get(step.stepid) ?? step.form;
  return form && form.fields.length > 0 ? form : null;
}

/** The steps of a guide that are its own (not a prerequisite's). */
export const ownSteps = (detail: GuideDetail): GuideStep[] =>
  detail.steps.filter((step) => (step.guideid ?? detail.guideid) === detail.guideid);
