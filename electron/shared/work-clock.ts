import type { WorkSession, WorkTransition } from '../contract.ts';
import { targetOf } from './worklog.ts';

/** The clock fields of a session (unix seconds, on the site's clock). */
export type SessionClock = Pick<WorkSession, 'status' | 'startedAt' | 'endedAt' | 'pausedAt' | 'pauseSeconds'>;

/**
 * The clock part of a transition, as the site applies it: a pause or suspension stops the clock until
 * resume or assume; finish and cancel set the end. Times never run backwards: an action timed before
 * the session's last event counts at that event.
 */
export function applyClock(clock: SessionClock, transition: WorkTransition, at: number): SessionClock {
  const time = Math.max(Math.floor(at), clock.pausedAt ?? clock.startedAt);
  const next: SessionClock = { ...clock, status: targetOf(transition) };
  switch (transition) {
    case 'pause':
    case 'suspend':
      return { ...next, pausedAt: time };
    case 'resume':
    case 'assume':
      return { ...next, pauseSeconds: clock.pauseSeconds + (time - (clock.pausedAt ?? time)), pausedAt: null };
    case 'finish':
    case 'cancel':
      return { ...next, endedAt: time };
  }
}

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
