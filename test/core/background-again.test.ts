import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BackgroundSync } from '../../electron/core/sync/background.ts';
import type { SyncService } from '../../electron/core/sync/sync-service.ts';

// When the app syncs again by itself after guides it did not store (the schedule alone waited 15 minutes
// while a guide kept now said "kept as soon as the site answers"): pure timing, with a stand-in sync that
// records when it runs (e2e keep-again runs the real one against the site).
describe('a sync again soon after guides it did not store', () => {
  let due = true;
  let runs: number[] = [];
  let background: BackgroundSync;
  beforeEach(() => {
    vi.useFakeTimers();
    [due, runs] = [true, []];
    const sync = {
      running: false,
      sync: async () => {
        runs.push(Date.now());
        return { error: null };
      },
    } as unknown as SyncService;
    background = new BackgroundSync({
      sync,
      enabled: true,
      signedIn: () => true,
      everyMinutes: 60,
      log: () => {},
      guidesDue: () => due,
    });
  });
  afterEach(() => {
    background.close();
    vi.useRealTimers();
  });

  it('waits 10 s, then twice as long each time, and stops once none is due', async () => {
    const start = Date.now();
    background.again();
    await vi.advanceTimersByTimeAsync(151_000);
    due = false;
    await vi.advanceTimersByTimeAsync(3_000_000 - 151_000);
    // The last one (at 310 s) finds none due and asks for no other before the schedule's (at 3,600 s).
    expect(runs.map((at) => (at - start) / 1000)).toEqual([10, 30, 70, 150, 310]);
  });

  it('does nothing when nothing failed is due, or when automatic sync is off', async () => {
    due = false;
    background.again();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toEqual([]);
  });
});
