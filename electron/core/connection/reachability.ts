/** A request waiting this long with nothing heard from the site since it left: the site is asked at once. */
export const SLOW_MS = 1_000;
/** How long a check waits for the site's answer. */
export const PROBE_MS = 2_000;
/**
 * A check's time limit that ran out this much late: the event loop was held up (both cores busy), an
 * answer may be waiting unread, and the site is asked once more before it is said offline.
 */
export const LAG_MS = 500;
/** The site quiet this long while it answers: a check (so it is said offline within 5 s, even idle). */
export const QUIET_MS = 2_000;
/** Checks while the site does not answer, from the first to the most apart: it is said online within 2 s. */
export const RETRY_MIN_MS = 250;
export const RETRY_MAX_MS = 1_500;

/** What the watch needs of the world: a small question to the site, and whom to tell. */
export interface ReachabilityDelegate {
  /** Asks the site something small: true on any answer (even an error status), false on none before `signal`. */
  probe(signal: AbortSignal): Promise<boolean>;
  /** Told each change of whether the site answers. */
  changed(reachable: boolean): void;
}

/**
 * Whether the site answers, from what actually happens (issue 29): a request refused or timed out with
 * nothing heard from the site since it left says "unreachable" at once; a request waiting long, or a
 * site quiet for a while, sets off a short check; a check that gets no answer says "unreachable" too,
 * then checks follow with a backoff until one is answered. Any answer says "reachable".
 *
 * ```
 *            any answer (a request's or a check's)
 *        ┌────────────────────────────────────────────────┐
 *        ▼                                                │
 *    reachable ──refused / timed out, nothing heard──► unreachable ──► check after RETRY_MIN_MS,
 *        │ ▲                                              ▲            doubling to RETRY_MAX_MS
 *        │ │ answered                                     │ no answer within PROBE_MS
 *        ▼ │                                              │ (and nothing else heard)
 *     checking ───────────────────────────────────────────┘
 *        ▲
 *        └── a request waits SLOW_MS, or nothing heard for QUIET_MS
 * ```
 * While unreachable, a new request joins a check (reachability-http.ts): it is sent if the site answers it,
 * else it fails then, never waiting out its own time limit.
 */
export class Reachability {
  #reachable = true;
  #enabled = false;
  #closed = false;
  #lastHeard = Number.NEGATIVE_INFINITY;
  /** No quiet-site check before this: the site asked to be left alone (Retry-After). */
  #holdUntil = Number.NEGATIVE_INFINITY;
  #checking: Promise<boolean> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #retryMs = RETRY_MIN_MS;
  /** Reads waiting for their answers, each with when it left. */
  readonly #reads = new Set<{ sentAt: number; end: () => void }>();

  constructor(
    private readonly delegate: ReachabilityDelegate,
    readonly now: () => number = () => performance.now(),
  ) {}

  get reachable(): boolean {
    return this.#reachable;
  }

  /**
   * A read that left at `sentAt` waits for its answer: `end` is called if the site is found away by what
   * began after it left (a check, a request that got no answer, the network said gone). A check that was
   * already out when it left says nothing of it: that check may have gone out before the network came back,
   * and a read sent since on a site that answers must not end with it. A read that then waits SLOW_MS
   * sets off a check of its own, which ends it if the site is away. Call the result once it has its answer.
   */
  awaitAnswer(sentAt: number, end: () => void): () => void {
    const read = { sentAt, end };
    this.#reads.add(read);
    return () => this.#reads.delete(read);
  }

  /**
   * Watches while there is a site to talk to (someone signed in, someone's sign-in kept, a public site);
   * stops its own checks otherwise.
   */
  enable(on: boolean): void {
    if (on === this.#enabled || (on && this.#closed)) return;
    this.#enabled = on;
    if (on) this.#schedule();
    else this.#clear();
  }

  /** The site answered something (any status): it is reachable; `waitMs`, when it asked to be left alone that long. */
  heard(waitMs = 0): void {
    this.#lastHeard = this.now();
    if (waitMs > 0) this.#holdUntil = Math.max(this.#holdUntil, this.#lastHeard + waitMs);
    this.#retryMs = RETRY_MIN_MS;
    if (!this.#reachable) {
      this.#set(true);
      this.#schedule();
    }
  }

  /**
   * A request sent at `sentAt` got no answer (refused, reset, timed out). With nothing heard since it left
   * the site is unreachable now; if the site answered others meanwhile, it is only checked.
   */
  unanswered(sentAt: number): void {
    if (this.#lastHeard >= sentAt) void this.check();
    else this.#foundAway(sentAt);
  }

  /** The shell or a caller says the network is gone: unreachable until a check is answered. */
  lose(): void {
    this.#foundAway(this.now());
  }

  /** A request leaves now: if it waits SLOW_MS with nothing heard, the site is checked. Call the result at its end. */
  sent(): () => void {
    const sentAt = this.now();
    const timer = setTimeout(() => {
      if (this.#lastHeard < sentAt) void this.check();
    }, SLOW_MS);
    timer.unref();
    return () => clearTimeout(timer);
  }

  /**
   * "Send now": a check that leaves after this call, not one already out, which may have left before the
   * network came back and would fail what the technician asked for now. One still out is waited for even
   * while the site is thought reachable: ending unanswered, it would say the site away (and end the reads
   * sent meanwhile) just after Send now found nothing to ask.
   */
  async checkAfresh(): Promise<boolean> {
    if (this.#checking) await this.#checking;
    if (this.#reachable || this.#closed) return this.#reachable;
    return this.check();
  }

  /**
   * Asks the site now, or joins the check already out: whether the site answers (at most PROBE_MS). While
   * the watch is off and nothing is known wrong, nothing is asked. Thought away, the site is asked even
   * then: a request wants to go, and what was found before the watch stopped must not keep it from the site.
   */
  check(): Promise<boolean> {
    if (this.#closed || (!this.#enabled && this.#reachable)) return Promise.resolve(this.#reachable);
    this.#checking ??= this.#ask();
    return this.#checking;
  }

  async #ask(): Promise<boolean> {
    this.#clear();
    const since = this.now();
    let answered = await this.#probe();
    if (answered === 'late') answered = await this.#probe();
    this.#checking = null;
    if (answered === true) this.heard();
    else if (this.#lastHeard < since) {
      if (!this.#reachable) this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS);
      this.#foundAway(since);
    }
    this.#schedule();
    return this.#reachable;
  }

  /** Nothing heard from the site since `since`: it is away, and the reads that left before then end. */
  #foundAway(since: number): void {
    if (this.#closed) return;
    for (const read of this.#reads) {
      if (read.sentAt > since) continue;
      this.#reads.delete(read);
      read.end();
    }
    if (!this.#reachable) return;
    this.#set(false);
    this.#schedule();
  }

  /** One question within PROBE_MS: answered or not, or 'late' when its limit ran out LAG_MS late or more. */
  async #probe(): Promise<boolean | 'late'> {
    const limit = new AbortController();
    const due = this.now() + PROBE_MS;
    let late = false;
    const timer = setTimeout(() => {
      late = this.now() - due >= LAG_MS;
      limit.abort();
    }, PROBE_MS);
    timer.unref();
    const answered = await this.delegate.probe(limit.signal).catch(() => false);
    clearTimeout(timer);
    return !answered && late ? 'late' : answered;
  }

  /** The app is closing: no check is started, and an answer still on its way changes nothing. */
  close(): void {
    this.enable(false);
    this.#closed = true;
  }

  #set(reachable: boolean): void {
    if (this.#closed) return;
    this.#reachable = reachable;
    this.delegate.changed(reachable);
  }

  /** The next check: after a backoff while unreachable, else once the site has been quiet for QUIET_MS. */
  #schedule(): void {
    this.#clear();
    if (!this.#enabled || this.#checking) return;
    const quietAt = Math.max(this.#lastHeard + QUIET_MS, this.#holdUntil);
    const wait = this.#reachable ? Math.max(0, quietAt - this.now()) : this.#retryMs;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.#reachable && this.now() < Math.max(this.#lastHeard + QUIET_MS, this.#holdUntil)) this.#schedule();
      else void this.check();
    }, wait);
    this.#timer.unref();
  }

  #clear(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
