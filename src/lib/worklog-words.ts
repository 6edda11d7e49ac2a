import type { WorkSession, WorkStatus, WorkTransition } from '../../electron/contract.ts';

/** The clock fields of a session (unix seconds, on the site's clock). */
export type SessionClock = Pick<WorkSession, 'status' | 'startedAt' | 'endedAt' | 'pausedAt' | 'pauseSeconds'>;

/** Seconds of work: elapsed time less pauses. It stops while paused or suspended and at the end. */
export function activeSeconds(clock: SessionClock, now: number): number {
  const end = clock.endedAt ?? clock.pausedAt ?? now;
  return Math.max(0, Math.floor(end - clock.startedAt - clock.pauseSeconds));
}

/** Seconds paused (or suspended) in all, the current pause included while it lasts. */
export function pausedSeconds(clock: SessionClock, now: number): number {
  const current = clock.pausedAt !== null && clock.endedAt === null ? Math.max(0, now - clock.pausedAt) : 0;
  return Math.max(0, Math.floor(clock.pauseSeconds + current));
}

/** "0:04:07", "12:00:00": hours never wrap, a shift can run long. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** Reference 3.1: finish, cancel, pause and suspend only from started; resume only from paused; assume from suspended. */
const FROM: Record<WorkTransition, WorkStatus> = {
  pause: 'started',
  resume: 'paused',
  suspend: 'started',
  assume: 'suspended',
  finish: 'started',
  cancel: 'started',
};

/** The buttons a session shows, in the order the view lays them out. */
export function allowedTransitions(status: WorkStatus): WorkTransition[] {
  return (['resume', 'assume', 'pause', 'suspend', 'finish', 'cancel'] as const).filter((t) => FROM[t] === status);
}

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

export const isOpen = (status: WorkStatus): boolean => status !== 'complete' && status !== 'cancelled';
/** Forms can change while started or paused (the core refuses other states). */
export const isEditable = (status: WorkStatus): boolean => status === 'started' || status === 'paused';
