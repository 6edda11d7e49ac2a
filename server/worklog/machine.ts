import type { WorkStatus } from '../db/schema-content.ts';

export const TRANSITIONS = ['finish', 'cancel', 'pause', 'resume', 'suspend', 'assume'] as const;
export type Transition = (typeof TRANSITIONS)[number];

/** Reference 3.1: the one state each transition starts from, and where it leads. */
export const RULES: Record<Transition, { from: WorkStatus; to: WorkStatus }> = {
  finish: { from: 'started', to: 'complete' },
  cancel: { from: 'started', to: 'cancelled' },
  pause: { from: 'started', to: 'paused' },
  resume: { from: 'paused', to: 'started' },
  suspend: { from: 'started', to: 'suspended' },
  assume: { from: 'suspended', to: 'started' },
};

/** Step data may be saved while the entry is in progress or paused (never once it ended or was handed off). */
export const STEP_DATA_STATES: readonly WorkStatus[] = ['started', 'paused'];

/** The timing part of an entry that transitions change. */
export interface EntryClock {
  status: WorkStatus;
  userid: number;
  starttime: number;
  endtime: number | null;
  active_stepid: number | null;
  paused_stepid: number | null;
  paused_at: number | null;
  pause_duration: number;
  cancelled: number;
  duration: number;
}

export function allowed(transition: Transition, status: WorkStatus): boolean {
  return RULES[transition].from === status;
}

/**
 * Applies an allowed transition at time `at` (when the technician acted). Pauses and suspensions stop
 * the clock: the time until resume/assume is added to `pause_duration`. Times never run backwards:
 * an `at` before the entry's last event counts as that event's time.
 */
export function apply(entry: EntryClock, transition: Transition, at: number, actor: number): EntryClock {
  if (!allowed(transition, entry.status)) throw new Error(`${transition} is not allowed from ${entry.status}`);
  const lastEvent = entry.paused_at ?? entry.starttime;
  const time = Math.max(Math.floor(at), lastEvent);
  const next: EntryClock = { ...entry, status: RULES[transition].to };
  switch (transition) {
    case 'pause':
    case 'suspend':
      next.paused_at = time;
      next.paused_stepid = entry.active_stepid;
      next.active_stepid = null;
      return next;
    case 'resume':
    case 'assume':
      next.pause_duration = entry.pause_duration + (time - (entry.paused_at ?? time));
      next.paused_at = null;
      next.active_stepid = entry.paused_stepid;
      next.paused_stepid = null;
      if (transition === 'assume') next.userid = actor;
      return next;
    case 'finish':
    case 'cancel':
      next.endtime = time;
      next.duration = Math.max(0, time - entry.starttime - entry.pause_duration);
      next.active_stepid = null;
      next.cancelled = transition === 'cancel' ? 1 : 0;
      return next;
  }
}
