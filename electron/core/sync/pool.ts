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

/**
 * How many requests of one kind run at once, fitted to the link: AIMD with a slow start, as TCP fits its
 * congestion window: it starts at `start` and grows by one per request that succeeds (doubling each round) until the
 * first failure, then by one per round; a failure (a reset, a timeout, 429 or 5xx) halves it. Bounded by
 * `min` and `max`. We chose AIMD over throughput probing because failures are an unambiguous signal that
 * the link or the site has had enough, while throughput measured over a few hundred requests of very
 * different sizes is too noisy to steer by; on a healthy link it simply grows to `max`.
 */
export class Lanes {
  #window: number;
  #slowStart = true;

  constructor(
    readonly min: number,
    readonly max: number,
    start = min,
  ) {
    this.#window = Math.min(max, Math.max(min, start));
  }

  get current(): number {
    return Math.floor(this.#window);
  }

  succeeded(): void {
    this.#window = Math.min(this.max, this.#window + (this.#slowStart ? 1 : 1 / this.#window));
  }

  failed(): void {
    this.#slowStart = false;
    this.#window = Math.max(this.min, this.#window / 2);
  }
}

/**
 * Items that may arrive while the work runs: `take` answers the next one, `'wait'` when none is ready yet
 * (more may come: `ready` resolves when they may have), or `'end'` when none will come.
 */
export interface Feed<T> {
  take(): T | 'wait' | 'end';
  ready(): Promise<void>;
}

/** A feed of a fixed list. */
function feedOf<T>(items: Iterable<T>): Feed<T> {
  const iterator = items[Symbol.iterator]();
  return {
    take: () => {
      const next = iterator.next();
      return next.done ? 'end' : next.value;
    },
    ready: () => Promise.resolve(),
  };
}

/**
 * Runs `work` over `items`, as many at once as `lanes` allows at each moment (read again whenever one
 * ends). Stops starting new items once `signal` aborts; the ones running finish. Rejects with the first
 * error `work` throws, after the running ones settle. A `Feed` may ask to wait for items still to come.
 */
export function runAdaptive<T>(
  items: Iterable<T> | Feed<T>,
  lanes: Lanes,
  work: (item: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const feed = 'take' in items ? items : feedOf(items);
  let running = 0;
  let exhausted = false;
  let waiting = false;
  let failure: { error: unknown } | null = null;
  return new Promise((resolve, reject) => {
    const pump = (): void => {
      while (!exhausted && failure === null && !signal?.aborted && running < Math.max(1, lanes.current)) {
        const next = feed.take();
        if (next === 'end') {
          exhausted = true;
          break;
        }
        if (next === 'wait') {
          if (!waiting) {
            waiting = true;
            const wake = (): void => {
              waiting = false;
              pump();
            };
            feed.ready().then(wake, wake);
          }
          break;
        }
        running++;
        work(next).then(
          () => {
            running--;
            pump();
          },
          (error: unknown) => {
            running--;
            failure ??= { error };
            pump();
          },
        );
      }
      // Nothing running and not exhausted: waiting for the feed (its `ready` pumps again).
      if (running > 0) return;
      if (failure) reject(failure.error);
      else if (exhausted || signal?.aborted) resolve();
    };
    pump();
  });
}
