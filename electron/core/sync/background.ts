import type { SyncService } from './sync-service.ts';

export interface BackgroundSyncDeps {
  sync: SyncService;
  /** False in tests that sync by hand. */
  enabled: boolean;
  signedIn: () => boolean;
  everyMinutes: number;
  log: (message: string) => void;
  /** Guides that failed and are due again now (a first failure, a site that did not answer). */
  guidesDue: () => boolean;
  /** The first wait before a sync tries such guides again; it doubles each time, up to the schedule's. */
  againAfterMs?: number;
}

const AGAIN_AFTER_MS = 10_000;

/**
 * Syncs without being asked: on connect, on reconnect, at start, on a new scope and on a schedule; and soon
 * after a sync or a guide kept now left guides due that it did not store. A site that answered 503, or cut
 * the connection, stays online: no reconnect came, and a guide the technician asked to keep waited for the
 * schedule, 15 minutes, while its page said it was kept as soon as the site answered.
 */
export class BackgroundSync {
  readonly #timer: NodeJS.Timeout;
  #again: NodeJS.Timeout | null = null;
  #againMs = 0;

  constructor(private readonly deps: BackgroundSyncDeps) {
    this.#timer = setInterval(() => this.run('schedule'), deps.everyMinutes * 60_000);
    this.#timer.unref();
  }

  /** Starts a sync unless one runs or nobody is signed in; its failure is logged, never thrown. */
  run(reason: string): void {
    const { sync, log } = this.deps;
    if (!this.deps.enabled || !this.deps.signedIn() || sync.running) return;
    void sync.sync().then(
      (outcome) => {
        if (outcome.error)
          log(`Sync (${reason}) ended ${outcome.status}: ${outcome.error.resource ?? ''} ${outcome.error.message}`);
        this.again();
      },
      (error: unknown) =>
        log(`Sync (${reason}) could not run: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  /**
   * A sync soon when guides it did not store are due again (after a sync, or a guide kept now): first
   * after `againAfterMs`, then twice as long each time they are still due, up to the schedule's interval.
   */
  again(): void {
    if (this.#again) clearTimeout(this.#again);
    this.#again = null;
    if (!this.deps.enabled || !this.deps.guidesDue()) {
      this.#againMs = 0;
      return;
    }
    const first = this.deps.againAfterMs ?? AGAIN_AFTER_MS;
    this.#againMs = Math.min(this.#againMs === 0 ? first : this.#againMs * 2, this.deps.everyMinutes * 60_000);
    this.#again = setTimeout(() => {
      this.#again = null;
      this.run('again');
    }, this.#againMs);
    this.#again.unref();
  }

  close(): void {
    clearInterval(this.#timer);
    if (this.#again) clearTimeout(this.#again);
  }
}
