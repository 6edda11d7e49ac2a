/** A request waiting this long with nothing heard from the site since it left: the site is asked at once. */
export const SLOW_MS = 1_000;
/** How long a check waits for the site's answer (a site known slow: up to PROBE_MAX_MS, see SLOW_FACTOR). */
export const PROBE_MS = 2_000;
/**
 * A check of a site whose last answer took long waits twice that, up to this: a site on bad Wi-Fi that
 * answers in 3–8 s was said offline at every check, and nothing was ever sent to it.
 */
export const PROBE_MAX_MS = 10_000;
export const SLOW_FACTOR = 2;
/**
 * One check whose time limit ran out is still listened to this long (one at a time): its answer, late,
 * says the site is there and how slow it is.
 */
export const LATE_MS = 20_000;
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
 * A check that runs out of time is still listened to (one at a time): a slow site's late answer says it
 * is there, and the checks after it wait twice as long as it took (bad Wi-Fi, answers in 3–8 s).
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
  /** How long the site's last answered check took (ms). */
  #answerMs = 0;
  /** The one check still listened to after its time limit ran out, if any. */
  #lingering: Promise<boolean> | null = null;
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

  /** A check's time limit now: PROBE_MS, or twice the last answer's time for a slow site (PROBE_MAX_MS at most). */
  get probeMs(): number {
    return Math.min(PROBE_MAX_MS, Math.max(PROBE_MS, SLOW_FACTOR * this.#answerMs));
  }

  /**
   * One question within `probeMs`: answered or not, or 'late' when its limit ran out LAG_MS late or more.
   * Unanswered in time, it is still listened to (one at a time, up to LATE_MS): a late answer says the
   * site is there, and the next checks wait long enough for it.
   */
  async #probe(): Promise<boolean | 'late'> {
    const limitMs = this.probeMs;
    const started = this.now();
    const due = started + limitMs;
    const lingers = this.#lingering === null;
    const stop = new AbortController();
    const giveUp = setTimeout(() => stop.abort(), lingers ? LATE_MS : limitMs);
    giveUp.unref();
    const asked = this.delegate
      .probe(stop.signal)
      .catch(() => false)
      .then((answered) => {
        clearTimeout(giveUp);
        if (answered) this.#answerMs = this.now() - started;
        return answered;
      });
    if (lingers) {
      this.#lingering = asked;
      void asked.then((answered) => {
        this.#lingering = null;
        // Answered after this check gave up: the site is there, only slow.
        if (answered && !this.#closed && this.now() > due) this.heard();
      });
    }
    let timer: NodeJS.Timeout | undefined;
    const outOfTime = new Promise<'out'>((resolve) => {
      timer = setTimeout(() => resolve('out'), limitMs);
      timer.unref();
    });
    const answered = await Promise.race([asked, outOfTime]);
    clearTimeout(timer);
    // Out of time (or stopped at it, when another check lingers): 'late' when the limit ran out late.
    if (answered === 'out' || (!answered && stop.signal.aborted)) return this.now() - due >= LAG_MS ? 'late' : false;
    return answered;
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
