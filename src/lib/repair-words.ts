import { plural } from './format.ts';

/** Each table of the technician's in words: one row, and more ("1 work session", "3 work sessions"). */
export const WORDS: Record<string, [string, string]> = {
  technicians: ['technician', 'technicians'],
  work_sessions: ['work session', 'work sessions'],
  work_values: ['step value', 'step values'],
  attachments: ['attached file', 'attached files'],
  outbox: ['action waiting to be sent', 'actions waiting to be sent'],
  conflicts: ['conflict', 'conflicts'],
  quiz_attempts: ['quiz attempt', 'quiz attempts'],
  revision_pins: ['guide revision in use', 'guide revisions in use'],
  settings: ['setting', 'settings'],
};

/**
 * Rows of a repair by table in words (SyncRepair.vue): the technician's tables only, and only those with
 * any ("Put back: 1 work session, 0 conflicts, 0 quiz attempts" listed what had nothing to put back).
 */
export const inWords = (rows: Record<string, number>): string[] =>
  Object.entries(rows)
    .filter(([table, count]) => table in WORDS && table !== 'settings' && table !== 'revision_pins' && count > 0)
    .map(([table, count]) => plural(count, ...WORDS[table]!));
