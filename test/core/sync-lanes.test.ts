import { describe, expect, it } from 'vitest';
import { Lanes, runAdaptive } from '../../electron/core/sync/pool.ts';

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
