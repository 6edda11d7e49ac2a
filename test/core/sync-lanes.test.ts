import { describe, expect, it } from 'vitest';
import { Lanes, QUEUE_TARGET_MS, runAdaptive } from '../../electron/core/sync/pool.ts';

// The sync's lanes (issue 17): AIMD with a slow start, and a pool that follows them as they change.
describe('lanes fitted to the link', () => {
  it(
    'double each round from the start until the first failure, then grow by one a round; ' + 'a failure halves them',
    () => {
      const lanes = new Lanes(2, 64, 4);
      const round = (): void => {
        for (let i = lanes.current; i > 0; i--) lanes.succeeded();
      };
      round();
      expect(lanes.current).toBe(8);
      round();
      expect(lanes.current).toBe(16);
      lanes.failed();
      expect(lanes.current).toBe(8);
      round();
      round();
      expect(lanes.current).toBe(9); // about one more per round now

      for (let i = 0; i < 10; i++) lanes.failed();
      expect(lanes.current).toBe(2);
      for (let i = 0; i < 100_000; i++) lanes.succeeded();
      expect(lanes.current).toBe(64);
    },
  );

  it(
    'stop growing once requests wait in a queue, QUEUE_TARGET_MS past the quickest of the last ones, ' +
      'and settle where they do not',
    () => {
      const lanes = new Lanes(2, 64, 4, () => 0);
      const round = (ms: number): void => {
        for (let i = lanes.current; i > 0; i--) lanes.succeeded(ms);
      };
      // The link's own delay, 100 ms: the slow start doubles the lanes each round.
      round(100);
      round(100);
      expect(lanes.current).toBe(16);
      // A large answer alone is no queue: the quickest of the last four is the delay now.
      lanes.succeeded(100 + 3 * QUEUE_TARGET_MS);
      expect(lanes.current).toBe(17);
      // Every request now waits twice the target: the slow start ends, and the lanes go back by half.
      // (the first three still count an earlier quick one among the last four, and grow).
      for (let i = 0; i < 4; i++) lanes.succeeded(100 + 2 * QUEUE_TARGET_MS);
      expect(lanes.current).toBe(9);
      // Still queued: one lane fewer a round, never under where they started (a failure still halves them).
      round(100 + 2 * QUEUE_TARGET_MS);
      expect(lanes.current).toBe(8);
      for (let i = 0; i < 40; i++) round(100 + 4 * QUEUE_TARGET_MS);
      expect(lanes.current).toBe(4);
      lanes.failed();
      expect(lanes.current).toBe(2);
      round(100 + 4 * QUEUE_TARGET_MS);
      expect(lanes.current).toBe(2);
      // Under the target again: they grow, by less than one a round, as TCP does after its slow start.
      for (let i = 0; i < 4; i++) lanes.succeeded(100);
      const before = lanes.current;
      for (let i = 0; i < 10; i++) round(100 + QUEUE_TARGET_MS / 2);
      expect(lanes.current).toBeGreaterThan(before);
      expect(lanes.current).toBeLessThanOrEqual(before + 10);
    },
  );

  it('learn again a link that grew slower: after a minute or two its quickest request is its own delay', () => {
    let now = 0;
    const lanes = new Lanes(2, 64, 8, () => now);
    for (let i = 0; i < 8; i++) lanes.succeeded(100);
    expect(lanes.current).toBe(16);
    // The link now takes 400 ms for the same requests (another network): that is queue, until it is learned.
    now = 61_000;
    for (let i = 0; i < 4; i++) lanes.succeeded(400);
    expect(lanes.current).toBeLessThan(16);
    now = 122_000;
    lanes.succeeded(400);
    const learned = lanes.current;
    for (let round = 0; round < 8; round++) for (let i = lanes.current; i > 0; i--) lanes.succeeded(400);
    expect(lanes.current).toBeGreaterThan(learned);
  });

  it('runs as many at once as the lanes allow at each moment, every item once', async () => {
    const lanes = new Lanes(1, 8, 1);
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await runAdaptive(
      Array.from({ length: 60 }, (_, i) => i),
      lanes,
      async (item) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        done.push(item);
        lanes.succeeded();
      },
    );
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
  });

  it(
    'stops starting work when the signal aborts, ' + 'and passes on the first error after the running ones settle',
    async () => {
      const controller = new AbortController();
      const started: number[] = [];
      await runAdaptive(
        [1, 2, 3, 4, 5],
        new Lanes(1, 1),
        async (item) => {
          started.push(item);
          if (item === 2) controller.abort();
        },
        controller.signal,
      );
      expect(started).toEqual([1, 2]);
      await expect(
        runAdaptive([1, 2, 3], new Lanes(2, 2), async (item) => {
          if (item === 1) throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
    },
  );

  it('waits for a feed that has nothing yet, takes what arrives, and ends when the feed says so', async () => {
    const arrived: number[] = [];
    let wake: () => void = () => {};
    let finished = false;
    const feed = {
      take: (): number | 'wait' | 'end' => (arrived.length > 0 ? arrived.shift()! : finished ? 'end' : 'wait'),
      ready: () => new Promise<void>((resolve) => (wake = resolve)),
    };
    const done: number[] = [];
    const run = runAdaptive(feed, new Lanes(2, 8, 4), async (n) => void done.push(n));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(done).toEqual([]);
    arrived.push(1, 2, 3);
    wake();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(done).toEqual([1, 2, 3]);
    arrived.push(4);
    finished = true;
    wake();
    await run;
    expect(done).toEqual([1, 2, 3, 4]);
  });
});
