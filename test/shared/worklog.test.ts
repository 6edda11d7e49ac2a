import { describe, expect, it } from 'vitest';
import type { WorkStatus, WorkTransition } from '../../electron/contract.ts';
import { activeSeconds, pausedSeconds } from '../../electron/shared/work-clock.ts';
import { allowedTransitions, canApply, TRANSITION_TABLE, targetOf } from '../../electron/shared/worklog.ts';
import { allowed, apply, TRANSITIONS as SITE_TRANSITIONS, type EntryClock } from '../../server/worklog/machine.ts';

const T0 = 1_700_000_000;
const clock = (over: Partial<Parameters<typeof activeSeconds>[0]> = {}) => ({
  status: 'started' as const,
  startedAt: T0,
  endedAt: null,
  pausedAt: null,
  pauseSeconds: 0,
  ...over,
});

describe('session timers', () => {
  it('count active time while started and stop it during a pause', () => {
    expect(activeSeconds(clock(), T0 + 90)).toBe(90);
    const paused = clock({ status: 'paused', pausedAt: T0 + 60 });
    expect(activeSeconds(paused, T0 + 600)).toBe(60);
    expect(pausedSeconds(paused, T0 + 600)).toBe(540);
  });

  it('take earlier pauses off the active time after a resume', () => {
    const resumed = clock({ pauseSeconds: 300 });
    expect(activeSeconds(resumed, T0 + 1000)).toBe(700);
    expect(pausedSeconds(resumed, T0 + 1000)).toBe(300);
  });

  it('freeze both at the end of the session', () => {
    const done = clock({ status: 'complete', endedAt: T0 + 3600, pauseSeconds: 600 });
    expect(activeSeconds(done, T0 + 99_999)).toBe(3000);
    expect(pausedSeconds(done, T0 + 99_999)).toBe(600);
  });

  it('count a suspension as pause time and never go negative with a clock that lags', () => {
    const suspended = clock({ status: 'suspended', pausedAt: T0 + 100, pauseSeconds: 20 });
    expect(pausedSeconds(suspended, T0 + 160)).toBe(80);
    expect(activeSeconds(clock(), T0 - 30)).toBe(0);
    expect(pausedSeconds(suspended, T0 + 50)).toBe(20);
  });

  it('offer only the transitions reference 3.1 allows from each status', () => {
    expect(allowedTransitions('started')).toEqual(['pause', 'suspend', 'finish', 'cancel']);
    expect(allowedTransitions('paused')).toEqual(['resume']);
    expect(allowedTransitions('suspended')).toEqual(['assume']);
    expect(allowedTransitions('complete')).toEqual([]);
    expect(allowedTransitions('cancelled')).toEqual([]);
  });
});

const STATUSES = Object.keys({ started: 1, paused: 1, suspended: 1, complete: 1, cancelled: 1 } satisfies Record<
  WorkStatus,
  1
>) as WorkStatus[];

describe('the work-log transition table', () => {
  // The reference server keeps its own state machine (it plays the site): the app's one table must agree
  // with it on every transition from every state, or replays would be refused for reasons the app cannot see.
  it("allows exactly what the reference server's own state machine allows, and lands where it lands", () => {
    expect(Object.keys(TRANSITION_TABLE).sort()).toEqual([...SITE_TRANSITIONS].sort());
    const entry = (status: WorkStatus): EntryClock => ({
      status,
      userid: 1,
      starttime: 1000,
      endtime: null,
      active_stepid: 5,
      paused_stepid: null,
      paused_at: status === 'paused' || status === 'suspended' ? 1100 : null,
      pause_duration: 0,
      cancelled: 0,
      duration: 0,
    });
    for (const transition of SITE_TRANSITIONS satisfies readonly WorkTransition[]) {
      for (const status of STATUSES) {
        expect(canApply(status, transition), `${transition} from ${status}`).toBe(allowed(transition, status));
        if (canApply(status, transition))
          expect(apply(entry(status), transition, 1200, 2).status, `${transition} from ${status}`).toBe(
            targetOf(transition),
          );
      }
    }
  });
});
