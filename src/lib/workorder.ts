import { WORK_ORDER_MAX_CHARS } from '../../electron/shared/limits.ts';

/** A work order number as the technician types it: required, one line, within the App API's limit. */
export function workOrderProblem(raw: string): string | null {
  const value = raw.trim();
  if (value === '') return 'Enter the work order number.';
  if (/[\r\n\t]/.test(value)) return 'The work order number is a single line.';
  if (value.length > WORK_ORDER_MAX_CHARS) return `A work order number has at most ${WORK_ORDER_MAX_CHARS} characters.`;
  return null;
}

/** The words before a work order's number, once, whatever prefix the workshop's numbers carry. */
export const WORK_ORDER_WORDS = 'Work order';
