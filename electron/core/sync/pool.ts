/**
 * Runs `work` over `items` with at most `concurrency` at a time, in order of start. Stops starting new
 * items once `signal` aborts; the ones running finish (or see the signal themselves).
 */
export async function runBounded<T>(
  items: Iterable<T>,
  concurrency: number,
  work: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const iterator = items[Symbol.iterator]();
  const lane = async (): Promise<void> => {
    for (;;) {
      if (signal?.aborted) return;
      const next = iterator.next();
      if (next.done) return;
      await work(next.value);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
}
