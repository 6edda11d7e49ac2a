import type { GuideStep, StepFormField } from '../contract.ts';

// What a recorded value means for an inspection (issue 28): in words, and whether it is a failing answer.
// One home for the rule: the step form, the Finish review, the summary, the report and the conflict
// records all read values through it.

/** A value as a technician reads it: a checkbox as Yes / No, nothing as "Not answered", never 1/0. */
export function answerWords(field: Pick<StepFormField, 'type'> | undefined, value: string | null): string {
  if (value === null || value.trim() === '') return NOT_ANSWERED;
  if (field?.type === 'Checkbox') return value === '1' ? 'Yes' : value === '0' ? 'No' : value;
  return value;
}
export const NOT_ANSWERED = 'Not answered';

/** An inclusive range a Numeric Input states; either end may be open. */
export interface StatedRange {
  min: number | null;
  max: number | null;
  /** As the form stated it, to quote in the flag. */
  text: string;
}

const NUM = String.raw`(-?\d+(?:[.,]\d+)?)`;
const parse = (n: string): number => Number(n.replace(',', '.'));

/**
 * The range a Numeric Input's placeholder or options state, in the forms authors write them:
 * "10–14 mm", "10 to 14", "between 10 and 14", "12 ± 2", "12 +/- 2", "min 10", "max 14", "≥ 10",
 * "at most 14", or two options that are the two ends (["10", "14"]). A lone number ("12", "e.g. 1200")
 * is an example, not a range.
 */
export function statedRange(field: Pick<StepFormField, 'type' | 'placeholder' | 'options'>): StatedRange | null {
  if (field.type !== 'Numeric Input') return null;
  const plain = field.options.map((o) => o.trim()).filter((o) => new RegExp(`^${NUM}$`).test(o));
  if (field.options.length === 2 && plain.length === 2) {
    const [a, b] = plain.map(parse) as [number, number];
    return { min: Math.min(a, b), max: Math.max(a, b), text: `${plain[0]}–${plain[1]}` };
  }
  for (const text of [field.placeholder, field.options.join('; ')]) {
    const range = rangeIn(text);
    if (range) return range;
  }
  return null;
}

function rangeIn(raw: string): StatedRange | null {
  const text = raw.trim();
  if (!text) return null;
  const between = new RegExp(`${NUM}\\s*(?:–|—|-|to|and|\\.\\.)\\s*${NUM}`, 'i').exec(text);
  if (between) {
    const [a, b] = [parse(between[1]!), parse(between[2]!)];
    if (a <= b) return { min: a, max: b, text };
  }
  const plusMinus = new RegExp(`${NUM}\\s*(?:±|\\+/-|\\+-)\\s*${NUM}`).exec(text);
  if (plusMinus) {
    const [mid, off] = [parse(plusMinus[1]!), Math.abs(parse(plusMinus[2]!))];
    return { min: mid - off, max: mid + off, text };
  }
  const atLeast = new RegExp(`(?:min(?:imum)?\\.?:?|at least|no less than|≥|>=|>)\\s*${NUM}`, 'i').exec(text);
  const atMost = new RegExp(`(?:max(?:imum)?\\.?:?|at most|no more than|up to|≤|<=|<)\\s*${NUM}`, 'i').exec(text);
  if (!atLeast && !atMost) return null;
  return { min: atLeast ? parse(atLeast[1]!) : null, max: atMost ? parse(atMost[1]!) : null, text };
}

/** Words that make a Radios/Select option a failing answer when the option is that word or begins with it. */
const FAIL_WORDS = ['fail', 'failed', 'no', 'not ok', 'nok', 'unsafe', 'reject', 'rejected', 'defective'];
/** Phrases that make an option a failing answer wherever they stand in it. */
const FAIL_PHRASES = ['out of service', 'do not use', 'tag out', 'tagged out', 'not safe'];

/** Whether a Radios/Select option is a failing answer ("Fail", "No", "Cracked or bent: out of service"). */
export function isFailingOption(option: string): boolean {
  const text = option.trim().toLowerCase();
  if (FAIL_PHRASES.some((p) => text.includes(p))) return true;
  // "No" or "No: worn" fails; "No leaks" or "None found" does not: the word must stand alone before a stop.
  const lead = /^([^:;,.(–—-]+)/.exec(text)?.[1]?.trim() ?? text;
  return FAIL_WORDS.includes(lead);
}

/**
 * Why a saved answer fails its field, in a technician's words, or null: a Checkbox answered and left
 * unticked, a failing Radios/Select option, or a number outside the range the field states. An
 * unanswered field fails nothing: it is "not answered", which the Finish review lists on its own.
 */
export function failingAnswer(field: StepFormField, value: string | null): string | null {
  if (value === null || value.trim() === '') return null;
  switch (field.type) {
    case 'Checkbox':
      return value === '0' ? 'not ticked' : null;
    case 'Radios':
    case 'Select':
      return isFailingOption(value) ? value : null;
    case 'Numeric Input': {
      const range = statedRange(field);
      const n = Number(value.trim());
      if (!range || !Number.isFinite(n)) return null;
      if ((range.min !== null && n < range.min) || (range.max !== null && n > range.max))
        // "9 is outside 10–14 mm"; a range stated in words is quoted ("101 is outside between 70 and 95").
        return /^[\d.,+−-]/.test(range.text)
          ? `${value.trim()} is outside ${range.text}`
          : `${value.trim()} is outside the stated range (${range.text})`;
      return null;
    }
    default:
      return null;
  }
}

/** The word a failing answer carries wherever it is shown, so that red is never the only sign. */
export const FAIL_WORD = 'FAIL';

const SIGN_OFF_LABEL = /sign(?:ed)?[\s-]*off|signature|signed by|inspected by|inspector/i;

/** A text field whose label names a sign-off ("Signed off by", "Signature"): where `signOffField` looks. */
export const isSignOffField = (field: Pick<StepFormField, 'type' | 'label'>): boolean =>
  (field.type === 'Text Input' || field.type === 'Text Area') && SIGN_OFF_LABEL.test(field.label);

/**
 * The form field a sign-off goes into (core/worklog/sign-off.ts), and the one the report looks at to say
 * where it is: the last text field of the guide's own steps whose label names a sign-off, else null. A
 * prerequisite's "Signed off by" signs off that procedure, not this job: the hose guide's sign-off went into
 * its pre-shift inspection's field (a walk of long guides). Without `guideid`, the guide's own steps are the
 * last steps' guide (a prerequisite's steps come first).
 */
export function signOffField(guide: {
  guideid?: number;
  steps: readonly GuideStep[];
}): { field: StepFormField; stepid: number } | null {
  const own = guide.guideid ?? guide.steps.at(-1)?.guideid;
  let found: { field: StepFormField; stepid: number } | null = null;
  for (const step of guide.steps) {
    if ((step.guideid ?? own) !== own) continue;
    for (const field of step.form?.fields ?? []) if (isSignOffField(field)) found = { field, stepid: step.stepid };
  }
  return found;
}

/** Whether a step's field is the one the sign-off fills (`signOffField`): not typed, not asked for by the review. */
export const isSignOffTarget = (
  target: { field: Pick<StepFormField, 'fieldGuid'>; stepid: number } | null,
  stepid: number,
  field: Pick<StepFormField, 'fieldGuid'>,
): boolean => target !== null && target.stepid === stepid && target.field.fieldGuid === field.fieldGuid;
