import type { WorkStatus, WorkTransition } from '../../electron/contract.ts';

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
