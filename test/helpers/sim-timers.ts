import type { OutboxTimer } from '../../electron/core/outbox/outbox-timer.ts';

/**
 * The outbox's waits on a simulated clock (ServicesDeps.outboxTimer): a wait fires when the test has moved
 * `now` past it and calls `runDue`, which awaits the replays the waits start. Backoff of minutes or hours
 * is then tested in moments, with no real waiting and no timing on a busy machine.
 */
export class SimTimers {
  #waits: { at: number; run: () => Promise<void>; cancelled: boolean }[] = [];

  constructor(private readonly now: () => number) {}

  readonly timer: OutboxTimer = (run, ms) => {
    const wait = { at: this.now() + ms, run, cancelled: false };
    this.#waits.push(wait);
    return () => {
      wait.cancelled = true;
    };
  };

  /** Runs every wait due by now, and those the replays set that are due too (bounded). */
  async runDue(): Promise<void> {
    for (let round = 0; round < 100; round++) {
      this.#waits = this.#waits.filter((wait) => !wait.cancelled);
      const due = this.#waits.filter((wait) => wait.at <= this.now());
      if (due.length === 0) return;
      this.#waits = this.#waits.filter((wait) => !due.includes(wait));
      await Promise.all(due.map((wait) => wait.run()));
    }
    throw new Error('The outbox kept setting waits that were due at once');
  }
}
