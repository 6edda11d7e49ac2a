import { describe, expect, it } from 'vitest';
import { ServerClock } from '../../electron/core/connection/server-clock.ts';
import type { OutboxRepo, OutboxRow } from '../../electron/core/db/repos/outbox-repo.ts';
import type { SettingsRepo } from '../../electron/core/db/repos/settings-repo.ts';
import { ActionRegistry } from '../../electron/core/outbox/registry.ts';
import { SendTimes } from '../../electron/core/outbox/send-time.ts';
import type { WorklogReplayDeps } from '../../electron/core/worklog/replay/context.ts';
import { WORKLOG_ACTIONS } from '../../electron/core/worklog/replay/index.ts';

// The send times against the real server clock, moved by hand across second boundaries: the site's
// `Date` is whole seconds, so two answers floor its time differently.
const SITE = 1_800_000_000;

function setup() {
  let wall = SITE * 1000 + 100; // the laptop agrees with the site to a tenth of a second
  let mono = 1_000;
  const settings = { get: () => undefined, set: () => {} } as unknown as SettingsRepo;
  const clock = new ServerClock(
    settings,
    () => wall,
    () => mono,
  );
  const moved: { id: number; at: number }[] = [];
  const outbox = { setActedAt: (id: number, at: number) => moved.push({ id, at }) } as unknown as OutboxRepo;
  // The work log's own kinds, their session not on this laptop (nothing to follow).
  const kinds = new ActionRegistry();
  const deps = { sessions: { state: () => undefined }, now: () => Math.floor(wall / 1000) };
  kinds.register({ chains: ['session'], actions: WORKLOG_ACTIONS, deps: deps as unknown as WorklogReplayDeps });
  const sendTimes = new SendTimes(clock, outbox);
  const times = {
    prepare: (r: OutboxRow) => {
      const read = kinds.kind(r.kind)!.read(r);
      if (!read.ok) throw new Error(read.message);
      return sendTimes.prepare(r, read.action);
    },
  };
  const pass = (ms: number) => {
    wall += ms;
    mono += ms;
  };
  return { clock, times, moved, pass, setWall: (ms: number) => (wall = ms) };
}

function row(id: number, kind: string, actedAt: number): OutboxRow {
  return {
    id,
    chain: 'session-1',
    kind,
    payload: JSON.stringify(
      kind === 'start' ? { sessionId: 'session-1', guideid: 1, workorderid: 'W' } : { sessionId: 'session-1' },
    ),
    actedAt,
    state: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    unknownOutcome: false,
    lastError: null,
    technician: 1,
    createdAt: actedAt,
    refusals: 0,
    refusedSince: null,
    unknownSince: null,
  };
}

describe('send times', () => {
  it('keep a pause stamped within the second the site floors its Date to (the paused timer never steps back)', () => {
    const { clock, times, moved, pass } = setup();
    clock.observe(SITE); // true site time SITE.05: the offset learned is -0.1 s
    pass(1_850); // true site time SITE+1.9, answered as SITE+1
    clock.observe(SITE + 1);
    pass(200);
    const stamp = clock.stamp();
    expect(stamp.at).toBe(SITE + 2);
    expect(clock.siteNow()).toBe(SITE + 1);
    const prepared = times.prepare(row(1, 'pause', stamp.at));
    expect(prepared.actedAt).toBe(SITE + 2);
    expect(moved).toEqual([]);
  });

  it('still never send an action timed ahead of the site by more than its resolution (a day-fast laptop)', () => {
    const { clock, times, moved, pass } = setup();
    clock.observe(SITE);
    pass(5_000);
    const prepared = times.prepare(row(2, 'start', SITE + 86_400));
    expect(prepared.actedAt).toBe(SITE + 6);
    expect(moved).toEqual([{ id: 2, at: SITE + 6 }]);
  });
});
