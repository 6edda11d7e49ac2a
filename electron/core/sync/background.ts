import type { SyncService } from './sync-service.ts';

export interface BackgroundSyncDeps {
  sync: SyncService;
  /** False in tests that sync by hand. */
  enabled: boolean;
  signedIn: () => boolean;
  everyMinutes: number;
  log: (message: string) => void;
}

/** Syncs without being asked: on connect, on reconnect, at start, on a new scope and on a schedule. */
export class BackgroundSync {
  readonly #timer: NodeJS.Timeout;

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
      },
      (error: unknown) =>
        log(`Sync (${reason}) could not run: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  close(): void {
    clearInterval(this.#timer);
  }
}
