import type { WorkStatus } from '../../contract.ts';
import { targetOf, type Transition } from '../../shared/worklog.ts';

export interface SessionClock {
  status: WorkStatus;
  startedAt: number;
  endedAt: number | null;
  pausedAt: number | null;
  pauseSeconds: number;
}

/**
 * The clock part of a transition, as the site applies it: a pause or suspension stops the clock until
 * resume or assume; finish and cancel set the end. Times never run backwards: an action timed before
 * the session's last event counts at that event.
 */
export function applyClock(clock: SessionClock, transition: Transition, at: number): SessionClock {
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

/** Seconds of work so far (or in all, once ended): elapsed time less pauses. */
export function activeSeconds(clock: SessionClock, now: number): number {
  const end = clock.endedAt ?? clock.pausedAt ?? now;
  return Math.max(0, end - clock.startedAt - clock.pauseSeconds);
}
