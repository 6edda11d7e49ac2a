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
 * How long a sync's request may wait beyond the quickest one seen lately before its kind runs fewer at
 * once: the queue it leaves on the link, which a request of the technician's (a guide opened now) waits
 * behind. LEDBAT's idea (RFC 6817, a background transfer that yields to the foreground), by requests.
 */
export const QUEUE_TARGET_MS = 50;
/** How long the quickest request seen stays the link's own delay: a link that grew slower is learned again. */
const BASE_WINDOW_MS = 60_000;
/** How many of the last requests' times make the delay now (LEDBAT's filter of the current delay). */
const RECENT = 4;

/**
 * How many requests of one kind run at once, fitted to the link: AIMD with a slow start, as TCP fits its
 * congestion window: it starts at `start` and grows by one per request that succeeds (doubling each round) until the
 * first failure, then by one per round; a failure (a reset, a timeout, 429 or 5xx) halves it. Bounded by
 * `min` and `max`. We chose AIMD over throughput probing because failures are an unambiguous signal that
 * the link or the site has had enough, while throughput measured over a few hundred requests of very
 * different sizes is too noisy to steer by; on a healthy link it grows until the link queues.
 *
 * A request that succeeds may say how long it took (`succeeded(ms)`), and the lanes then follow the
 * queue too, as LEDBAT does: the delay now (the quickest of the last four: a large answer alone is no
 * queue) past the link's own (the quickest of the last minute or two) is how long requests wait in a
 * queue, the link's or the site's. Under QUEUE_TARGET_MS they grow as above; over it the slow start ends
 * with the lanes halved (they doubled in the round the queue grew in), and after it they shrink in
 * proportion to how far over, by one a round at most; never, by the queue alone, below where they
 * started (a site slow to make some answers is no full link: it keeps those lanes). More requests out
 * than fill the link only lengthen that queue, and a guide the technician opens during a sync waits
 * behind all of it: at 150 ms/5 Mbit a first sync held 166 requests out, and the guide's first answer
 * came after 0.53 s instead of one round trip (2026-12-02; 0.19 s since, with the sync as quick).
 */
export class Lanes {
  #window: number;
  #slowStart = true;
  /** The quickest request of this minute and of the last (their minimum is the link's own delay). */
  #base = { now: Number.POSITIVE_INFINITY, last: Number.POSITIVE_INFINITY, since: 0 };
  /** The last few requests' times: the quickest of them is the delay now (a large answer alone is no queue). */
  #recent: number[] = [];
  /** Where the queue alone takes the lanes no lower: where they started (failures still take them to `min`). */
  readonly #floor: number;

  constructor(
    readonly min: number,
    readonly max: number,
    start = min,
    private readonly clock: () => number = Date.now,
  ) {
    this.#window = Math.min(max, Math.max(min, start));
    this.#floor = this.#window;
    this.#base.since = clock();
  }

  get current(): number {
    return Math.floor(this.#window);
  }

  /** One request succeeded, in `ms` from asked to answered when told. */
  succeeded(ms?: number): void {
    const queued = ms === undefined ? 0 : this.#queued(ms);
    if (queued > QUEUE_TARGET_MS && this.#slowStart) {
      // The window doubled in the round the queue grew in: back to where it was (TCP's slow start ends so).
      this.#slowStart = false;
      this.#window = Math.max(this.#floor, this.#window / 2);
      return;
    }
    // Below the target it grows (by one a request in slow start, by one a round after); above, it shrinks
    // in proportion to how far, by one a round at most: the queue settles near the target (LEDBAT's rule).
    const off = Math.max(-1, (QUEUE_TARGET_MS - queued) / QUEUE_TARGET_MS);
    const step = this.#slowStart ? 1 : off / this.#window;
    const least = Math.min(this.#window, this.#floor);
    this.#window = Math.min(this.max, Math.max(least, this.#window + step));
  }

  failed(): void {
    this.#slowStart = false;
    this.#window = Math.max(this.min, this.#window / 2);
  }

  /** How long a request of `ms` waited in a queue: beyond the link's own delay (the quickest lately). */
  #queued(ms: number): number {
    const base = this.#base;
    const now = this.clock();
    if (now - base.since >= BASE_WINDOW_MS)
      [base.last, base.now, base.since] = [base.now, Number.POSITIVE_INFINITY, now];
    base.now = Math.min(base.now, ms);
    this.#recent.push(ms);
    if (this.#recent.length > RECENT) this.#recent.shift();
    return Math.min(...this.#recent) - Math.min(base.now, base.last);
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
