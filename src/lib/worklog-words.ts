import type { WorkSession, WorkStatus, WorkTransition } from '../../electron/contract.ts';
import { plural } from './format.ts';

export const TRANSITION_LABELS: Record<WorkTransition, string> = {
  pause: 'Pause',
  resume: 'Resume',
  suspend: 'Hand over',
  assume: 'Take over',
  finish: 'Finish',
  cancel: 'Cancel session',
};

export const STATUS_LABELS: Record<WorkStatus, string> = {
  started: 'In progress',
  paused: 'Paused',
  suspended: 'Handed over',
  complete: 'Complete',
  cancelled: 'Cancelled',
};

/**
 * What of a session needs the technician in the sync centre, as it counts it ("1 conflict · 2 failed"), or
 * '' when nothing does: the work those hold did not reach the site.
 */
export function unsettledWords(session: Pick<WorkSession, 'openConflicts' | 'failedActions'>): string {
  const { openConflicts, failedActions } = session;
  const parts = [
    openConflicts > 0 ? plural(openConflicts, 'conflict') : '',
    failedActions > 0 ? `${failedActions} failed` : '',
  ];
  return parts.filter((part) => part !== '').join(' · ');
}
