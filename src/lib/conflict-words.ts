import type { ConflictRecord, StepValue } from '../../electron/contract.ts';
import { answerWords } from '../../electron/shared/field-answers.ts';
import { isMediaField } from '../../electron/shared/field-values.ts';
import { SITE_DECIDED } from '../../electron/shared/site-decided.ts';
import { localTimes } from './format.ts';

/**
 * A side of a conflict card as a technician reads it: "(empty)" for nothing, a checkbox's `1` and `0` as Yes
 * and No (the card showed "Yours 0 / Before either change 1"), times in the computer's own zone. A file field's
 * value is the site's media item number: said as the file it is ("A photo"), not "4312".
 */
export function conflictValueWords(conflict: Pick<ConflictRecord, 'fieldType'>, value: string | null): string {
  if (value === null || value === '') return '(empty)';
  const type = conflict.fieldType;
  if (type && isMediaField(type)) return type === 'Image' ? 'A photo' : type === 'Video' ? 'A video' : 'A document';
  return localTimes(type ? answerWords({ type }, value) : value);
}

/** Where on the session the conflict is: "Step 4: Fork condition", as its run numbers it; null for a session's. */
export function conflictStepWords(conflict: Pick<ConflictRecord, 'step'>): string | null {
  const step = conflict.step;
  return step ? `Step ${step.number}${step.title ? `: ${step.title}` : ''}` : null;
}

/**
 * What a step's field says while a conflict on it is open (the card is in the sync centre, the field was
 * silent): what the site has, or that its form no longer has the field and the value stays here. A link to
 * the card follows (WorklogField.vue).
 */
export function fieldConflictWords(
  conflict: NonNullable<StepValue['conflict']>,
  fieldType: NonNullable<ConflictRecord['fieldType']>,
): string {
  if (conflict.offForm) {
    const what = isMediaField(fieldType) ? 'attached' : 'entered';
    return `The site's revised form no longer has this field: what you ${what} is kept on this computer only.`;
  }
  const theirs = conflictValueWords({ fieldType }, conflict.theirs);
  return conflict.theirs === null || conflict.theirs === ''
    ? 'Changed on the site too: it is empty there.'
    : `Changed on the site too: it has "${theirs}" there.`;
}

/**
 * The site's verdict on a session it decided ("Taken over by Jordan Lindqvist at …"): the first line of the
 * record's `theirs`, whose next lines are what the site records in the fields kept here (the card shows them).
 */
export const verdictOf = (theirs: string | null): string | null => (theirs === null ? null : theirs.split('\n')[0]!);

/**
 * The button that reads and closes a card the technician cannot answer. A session removed on the site said
 * "Understood, keep the site's state": the site has none of it (it is kept here, read-only, with its values).
 */
export function understoodWords(conflict: Pick<ConflictRecord, 'kind' | 'offForm' | 'label'>): string {
  if (conflict.kind === 'notice' || conflict.offForm || conflict.label === SITE_DECIDED.removed) return 'Understood';
  return conflict.kind === 'field' ? "Understood, keep the site's value" : "Understood, keep the site's state";
}
