/**
 * Who asks a failed request again, and how often: the one table (issue 27). Each failure is retried by
 * one layer only, so the counts never multiply (failure.ts names the kinds).
 */
export const RETRY_BUDGETS = {
  /**
   * transport.ts: a read (a GET, or a POST that only reads) whose connection was reset on the way
   * (`unreachable`, reason `other`) is asked again at once, within its time limit. Nothing else.
   */
  resetReads: 2,
  /**
   * patient.ts, a sync's requests: `busy` with a Retry-After up to `busyLongestWaitSeconds` is waited out
   * as told; a 429 that does not say waits 1, 2, 4, 8 s.
   */
  busyWaits: 4,
  busyLongestWaitSeconds: 120,
  /**
   * guides-phase.ts: a guide is asked once more only for what no layer beneath asks again: a `timeout`, a
   * `site-error`, or a 503 that gives no Retry-After.
   */
  guideRetries: 1,
  /** media-downloader.ts: a file whose connection was reset (downloads are not asked again beneath it). */
  downloadResets: 2,
  /**
   * outbox (backoff.ts): an action is never dropped for its tries; it waits from `outboxMinDelayMs` up to
   * `outboxMaxDelayMs` (capped exponential backoff with full jitter), never sooner than the site asked.
   */
  outboxMinDelayMs: 1_000,
  outboxMaxDelayMs: 5 * 60_000,
} as const;

/** Waits `ms`, or less when `signal` ends first. */
export const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * A request's time limit, the caller's signal and the app's closing (`closing`: every request ends at once)
 * as one signal: one controller and one timer (cheaper than AbortSignal.timeout and AbortSignal.any per
 * request). `refresh` pushes the limit back (a download's next chunk); `end` lets go of the timer and the
 * signals.
 */
export class Deadline {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #relay = (): void => this.#controller.abort(this.caller?.reason);
  readonly #closingRelay = (): void => this.#controller.abort(this.closing?.reason);
  #timedOut = false;

  constructor(
    readonly ms: number,
    private readonly caller?: AbortSignal,
    private readonly closing?: AbortSignal,
  ) {
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#controller.abort(new DOMException('The request took too long.', 'TimeoutError'));
    }, ms);
    if (caller?.aborted) this.#relay();
    else caller?.addEventListener('abort', this.#relay, { once: true });
    if (closing?.aborted) this.#closingRelay();
    else closing?.addEventListener('abort', this.#closingRelay, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get timedOut(): boolean {
    return this.#timedOut;
  }

  refresh(): void {
    this.#timer.refresh();
  }

  end(): void {
    clearTimeout(this.#timer);
    this.caller?.removeEventListener('abort', this.#relay);
    this.closing?.removeEventListener('abort', this.#closingRelay);
  }
}

/** `Retry-After` as seconds: a number of seconds or an HTTP date. */
export function retryAfterSeconds(header: string | null, nowMs = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, (at - nowMs) / 1000) : undefined;
}
