import type { ConflictRecord } from '../../electron/contract.ts';
import { answerWords } from '../../electron/shared/field-answers.ts';
import { localTimes } from './format.ts';

/**
 * A side of a conflict card as a technician reads it: "(empty)" for nothing, a checkbox's `1` and `0` as Yes
 * and No (the card showed "Yours 0 / Before either change 1"), times in the computer's own zone.
 */
export function conflictValueWords(conflict: Pick<ConflictRecord, 'fieldType'>, value: string | null): string {
  if (value === null || value === '') return '(empty)';
  return localTimes(conflict.fieldType ? answerWords({ type: conflict.fieldType }, value) : value);
}
