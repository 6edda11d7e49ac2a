import type { GuideDetail } from '../../electron/contract.ts';

/** A field of a step's record, named with the step it is on ("step 4", as that revision numbers it). */
export interface FieldOnStep {
  label: string;
  step: number;
}

/**
 * What the site's revised forms ask for that a session's revision does not, and what they no longer ask for,
 * by field_guid (a renamed field is the same field): the session keeps to its revision, and its notice says
 * what that leaves out (a value the office will look for that this session cannot give, a value that stays here).
 */
export function formChanges(session: GuideDetail, site: GuideDetail): { added: FieldOnStep[]; removed: FieldOnStep[] } {
  const fieldsOf = (guide: GuideDetail) =>
    guide.steps.flatMap((step, index) =>
      (step.form?.fields ?? []).map((f) => ({ guid: f.fieldGuid, label: f.label || f.type, step: index + 1 })),
    );
  const [was, now] = [fieldsOf(session), fieldsOf(site)];
  const notIn = (list: typeof was, other: typeof was) =>
    list.filter((f) => !other.some((o) => o.guid === f.guid)).map(({ label, step }) => ({ label, step }));
  return { added: notIn(now, was), removed: notIn(was, now) };
}

/** "Torque (step 1)", "A (step 1) and B (step 4)". */
export function fieldsWords(fields: readonly FieldOnStep[]): string {
  const each = fields.map((f) => `${f.label} (step ${f.step})`);
  return each.length <= 1 ? (each[0] ?? '') : `${each.slice(0, -1).join(', ')} and ${each.at(-1)}`;
}
