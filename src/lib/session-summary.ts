import type { GuideDetail, GuideStep, StepValue, ValueOnSite } from '../../electron/contract.ts';
import { answerWords, failingAnswer, NOT_ANSWERED, signOffField } from '../../electron/shared/field-answers.ts';
import { NO_FILE_WORDS, takesNoFile } from '../../electron/shared/field-values.ts';
import { formatDateTime, localTimes } from './format.ts';
import { stepSections } from './guide-sections.ts';

/** One value as a summary or report shows it. */
export interface ShownValue {
  label: string;
  /** In words: Yes / No / Not answered, never 1/0; a file by its name. */
  text: string;
  /** Why the answer fails its field ("not ticked", "Fail"), else null. */
  fail: string | null;
  /** Where the value is; null when nothing was recorded. */
  site: ValueOnSite | null;
  attachment: { id: string; name: string; uploaded: boolean } | null;
  /** An open conflict on this field: the site has another value, settled in the sync centre. */
  conflict: boolean;
  /**
   * Why a value the site does not have is not there (its `site` is `refused`): the site's words for a refused
   * save or upload, else what became of it; null for the others. The report listed "not sent" values with no
   * reason ("one of: Milky, Oily, Rusty" stood only in the sync centre).
   */
  why: string | null;
  /**
   * Saved here, then replaced by another computer or the site (StepValue.changedElsewhere): what was saved, in
   * words, and when this computer learned of it. The report showed the site's value alone, as if typed here.
   */
  changedElsewhere: { was: string; at: number } | null;
}

/** Under a value saved here that another computer or the site replaced since: what was saved, and when seen. */
export const changedElsewhereWords = (changed: { was: string; at: number }): string =>
  `Saved here as "${changed.was}", then changed on another computer or the site (seen ${formatDateTime(changed.at)}).`;

/** Why a recorded value the site did not take is not there (ShownValue.why). */
function whyNotOnSite(value: StepValue): string | null {
  if (value.site !== 'refused') return null;
  const refused = value.notSent ?? value.attachment?.notSent ?? null;
  if (refused) return `The site did not take it: ${refused}`;
  if (value.conflict) return 'The site has another value: see the sync centre.';
  return value.dropped ? 'Not sent, and no longer waiting to be sent.' : null;
}

/**
 * Beside a value the site does not have and will not get by itself: which one it is (the summary said only
 * "Not all: 1 conflict in the sync centre", every value alike). Null for a value sent or on its way.
 */
export function notOnSiteWords(value: ShownValue): string | null {
  if (value.site === 'kept') return 'kept on this computer only';
  if (value.site !== 'refused') return null;
  return value.conflict ? 'the site has another value: see the sync centre' : 'the site did not take it';
}

export interface SummaryStep {
  number: number;
  title: string;
  /** The language of its title when the guide is read in a translation (GuideStep.langid). */
  langid?: string;
  /**
   * Where a new part of the guide begins, its title: "Before you begin: <prerequisite>", or "Steps of this
   * guide" after them; null within a part, and for a guide without prerequisites. The report ran 1 to 30
   * with no word of which were the lockout's and the inspection's (a walk on a guide with two prerequisites).
   */
  part: string | null;
  /** False for a step without a form: listed all the same, with nothing to record. */
  hasForm: boolean;
  values: ShownValue[];
}

/**
 * Every step of the guide, each with its form's fields in the form's order, in words, with failing
 * answers marked: what the summary and the report show.
 */
export function summarySteps(
  steps: readonly GuideStep[],
  values: readonly StepValue[],
  guide?: Pick<GuideDetail, 'guideid' | 'prerequisites'>,
  /** The site takes pictures only: its Video and Document fields say why they are empty, and are not counted. */
  picturesOnly = false,
): SummaryStep[] {
  const byGuid = new Map(values.map((v) => [`${v.stepid}|${v.fieldGuid}`, v]));
  const signOff = signOffField({ guideid: guide?.guideid, steps });
  // Where each part begins, as the guide page's sections (guide-sections.ts): a guide without prerequisites has none.
  const parts = new Map(
    guide && guide.prerequisites.length > 0
      ? stepSections({ ...guide, steps: [...steps] }).map((section) => [
          section.steps[0]!.index,
          section.prerequisite === null ? 'Steps of this guide' : `Before you begin: ${section.prerequisite}`,
        ])
      : [],
  );
  return steps.map((step, index) => {
    const part = parts.get(index) ?? null;
    // The sign-off's time is written in UTC for the site, and read here in local time; a time the technician
    // typed in a field of their own stays as typed (a walk saw "14:00 UTC" typed shown as "08:00 AM").
    const isSignOff = (field: { fieldGuid: string }) =>
      signOff?.stepid === step.stepid && signOff.field.fieldGuid === field.fieldGuid;
    const shown = (step.form?.fields ?? []).map((field): ShownValue => {
      const words = (text: string) => (isSignOff(field) ? localTimes(text) : text);
      const value = byGuid.get(`${step.stepid}|${field.fieldGuid}`);
      const recorded = value !== undefined && (value.value !== null || value.attachment !== null);
      return {
        label: field.label || field.type,
        text: value?.attachment
          ? value.attachment.name
          : !recorded && takesNoFile(field, picturesOnly)
            ? NO_FILE_WORDS
            : words(answerWords(field, value?.value ?? null)),
        fail: value ? failingAnswer(field, value.value) : null,
        site: recorded ? value.site : null,
        attachment: value?.attachment ?? null,
        conflict: (value?.conflict ?? null) !== null,
        why: recorded ? whyNotOnSite(value) : null,
        changedElsewhere: value?.changedElsewhere
          ? { was: words(answerWords(field, value.changedElsewhere.was)), at: value.changedElsewhere.at }
          : null,
      };
    });
    const row = { number: index + 1, title: step.title, part, hasForm: step.form !== null, values: shown };
    return step.langid ? { ...row, langid: step.langid } : row;
  });
}

/** The recorded values in one place of the site's view, each with its step: the report's three sections. */
export function valuesBySite(
  rows: readonly SummaryStep[],
  site: ValueOnSite,
): (ShownValue & { step: number; stepTitle: string })[] {
  return rows.flatMap((row) =>
    row.values.filter((v) => v.site === site).map((v) => ({ ...v, step: row.number, stepTitle: row.title })),
  );
}

/**
 * How many fields nothing was recorded in: said beside the failed items, so a check skipped on a
 * guide of hazards is not read as a clean pass ("Failed items: None" alone did).
 */
export const notAnswered = (rows: readonly SummaryStep[]): number =>
  rows.flatMap((row) => row.values).filter((v) => v.attachment === null && v.text === NOT_ANSWERED).length;

/**
 * Where the sign-off's value is: the field it went into is the last sign-off field of the guide's forms
 * (core/worklog/sign-off.ts), and its value says whether the site has it. Null when it has none here.
 */
export function signOffOnSite(steps: readonly GuideStep[], values: readonly StepValue[]): ValueOnSite | null {
  const target = signOffField({ steps });
  const value = target && values.find((v) => v.stepid === target.stepid && v.fieldGuid === target.field.fieldGuid);
  return value && value.value !== null ? value.site : null;
}
