import type { GuideStep, SaveStepDataInput, StepValue, UnreadableAttachment } from '../../electron/contract.ts';
import { answerWords, failingAnswer, isSignOffTarget, signOffField } from '../../electron/shared/field-answers.ts';
import { fieldProblem, isMediaField, takesNoFile } from '../../electron/shared/field-values.ts';
import type { Draft } from '../drafts/keys.ts';
import { unsavedDrafts } from '../drafts/keys.ts';
import { valuesToSave } from './step-form.ts';

/** One step as the Finish review sees it. */
export interface ReviewedStep {
  /** 1-based, as the step list shows it. */
  number: number;
  stepid: number;
  title: string;
  /** Labels of the fields with nothing saved and nothing typed. */
  empty: string[];
  /** Typed and kept on this computer, not saved. */
  drafted: boolean;
  /** Why a draft of this step cannot be saved as it is (the first field's problem), else null. */
  problem: string | null;
}

/** A failing answer (issue 28), saved or typed, with its step. */
export interface FailedItem {
  number: number;
  stepid: number;
  title: string;
  label: string;
  /** The answer in words. */
  answer: string;
  /** Why it fails: "not ticked", "Fail", "9 is outside 10–14". */
  reason: string;
}

/** An attached file that cannot be read back as saved (so not sent), with its step and field. */
export interface UnreadableFile {
  number: number;
  stepid: number;
  title: string;
  label: string;
  problem: string;
  /** The site refused its upload: `problem` says what to do (attach another, or discard its upload). */
  refused: boolean;
}

/** A saved value whose save the site refused for good (its words), with its step and field. */
export interface RefusedValue {
  number: number;
  stepid: number;
  title: string;
  label: string;
  /** The site's words, naming the field. */
  problem: string;
}

/** A value the technician saved that another computer or the site replaced since (StepValue.changedElsewhere). */
export interface ChangedValue {
  number: number;
  stepid: number;
  title: string;
  label: string;
  /** What the site has now, and what the technician had saved, in words. */
  now: string;
  was: string;
}

export interface SessionReview {
  /** Failing answers, listed first: what a technician signs off on must not hide among the rest. */
  failed: FailedItem[];
  /** Files that will not be sent: replaced now, or never (an ended session takes no file). */
  unreadable: UnreadableFile[];
  /** Values the site did not take: their save holds the finish until changed (or discarded). */
  refused: RefusedValue[];
  /** Values replaced elsewhere since saved here: what is signed off is not what the technician entered. */
  changed: ChangedValue[];
  /** Steps with a form whose fields are not all filled. */
  emptySteps: ReviewedStep[];
  /** Steps holding typed values that are not saved yet. */
  draftSteps: ReviewedStep[];
  /** What confirming saves first: each drafted step's values, as its Save would send them. */
  saves: Omit<SaveStepDataInput, 'sessionId'>[];
}

/**
 * What Finish must not pass silently (issues 16 and 28): failing answers, files that cannot be sent (the
 * core reads them back: `unreadableFiles`), empty fields, and drafts that never became a save (typed, then
 * left by Back, another screen, a reload or a closed window). Pure: the view reads the drafts from Dexie and
 * the session from the core, this says what to show and what to save.
 */
export function reviewSession(
  steps: readonly GuideStep[],
  values: readonly StepValue[],
  drafts: readonly Draft[],
  unreadableFiles: readonly UnreadableAttachment[] = [],
  /** The site takes pictures only: its Video and Document fields are not empty work (nothing can fill them). */
  picturesOnly = false,
): SessionReview {
  const open = unsavedDrafts(drafts, values);
  const emptySteps: ReviewedStep[] = [];
  const draftSteps: ReviewedStep[] = [];
  const saves: SessionReview['saves'] = [];
  const failed: FailedItem[] = [];
  const refused: RefusedValue[] = [];
  const changed: ChangedValue[] = [];
  // The guide's own sign-off field is filled at Finish; a prerequisite's is a field like any other.
  const signOff = signOffField({ steps });
  steps.forEach((step, index) => {
    if (!step.form) return;
    const fields = step.form.fields;
    const mine = open.filter((d) => d.stepid === step.stepid && fields.some((f) => f.fieldGuid === d.fieldGuid));
    const saved = new Map(values.filter((v) => v.stepid === step.stepid).map((v) => [v.fieldGuid, v]));
    const typed = Object.fromEntries(mine.map((d) => [d.fieldGuid, d.value]));
    const empty = fields
      .filter((f) => {
        if (isSignOffTarget(signOff, step.stepid, f) || takesNoFile(f, picturesOnly)) return false;
        const have = saved.get(f.fieldGuid);
        const filled = have && (have.value !== null && have.value !== '' ? true : have.attachment !== null);
        return !filled && !(typed[f.fieldGuid] ?? '').trim();
      })
      .map((f) => f.label || f.type);
    for (const f of fields) {
      const answer = typed[f.fieldGuid] ?? saved.get(f.fieldGuid)?.value ?? null;
      const reason = failingAnswer(f, answer);
      if (reason === null) continue;
      const label = f.label || f.type;
      failed.push({
        number: index + 1,
        stepid: step.stepid,
        title: step.title,
        label,
        answer: answerWords(f, answer),
        reason,
      });
    }
    for (const f of fields) {
      // A value typed again is saved first when the technician confirms: it takes the refused save's place.
      const words = saved.get(f.fieldGuid)?.notSent;
      if (!words || isMediaField(f.type) || typed[f.fieldGuid] !== undefined) continue;
      // The site's words often name the field already (the reference site's do).
      const label = f.label || f.type;
      const said = words.replace(/[.\s]+$/, '');
      const problem = said.startsWith(label) ? said : `${label}: ${said}`;
      refused.push({ number: index + 1, stepid: step.stepid, title: step.title, label, problem });
    }
    for (const f of fields) {
      // Typed again here, it is theirs once more when they confirm (its line in the step says so meanwhile).
      const was = saved.get(f.fieldGuid)?.changedElsewhere?.was;
      if (was === undefined || typed[f.fieldGuid] !== undefined) continue;
      const now = answerWords(f, saved.get(f.fieldGuid)?.value ?? null);
      const label = f.label || f.type;
      changed.push({ number: index + 1, stepid: step.stepid, title: step.title, label, now, was: answerWords(f, was) });
    }
    let problem: string | null = null;
    if (mine.length > 0) {
      const toSave = valuesToSave(fields, saved, typed, true);
      for (const { fieldGuid, value } of toSave) {
        const field = fields.find((f) => f.fieldGuid === fieldGuid)!;
        problem ??= isMediaField(field.type) ? null : fieldProblem(field, value);
      }
      if (problem === null && toSave.length > 0) saves.push({ stepid: step.stepid, values: toSave });
    }
    const reviewed = {
      number: index + 1,
      stepid: step.stepid,
      title: step.title,
      empty,
      drafted: mine.length > 0,
      problem,
    };
    if (empty.length > 0) emptySteps.push(reviewed);
    if (mine.length > 0) draftSteps.push(reviewed);
  });
  const unreadable = unreadableFiles.flatMap((file) => {
    const index = steps.findIndex((step) => step.stepid === file.stepid);
    const field = steps[index]?.form?.fields.find((f) => f.fieldGuid === file.fieldGuid);
    if (!field) return [];
    const step = steps[index]!;
    return [
      {
        number: index + 1,
        stepid: step.stepid,
        title: step.title,
        label: field.label || field.type,
        problem: file.problem,
        refused: file.refused,
      },
    ];
  });
  return { failed, unreadable, refused, changed, emptySteps, draftSteps, saves };
}
