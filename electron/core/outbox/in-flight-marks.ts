/**
 * The in-flight marks of the actions about to be sent, written together. Every chain whose next action
 * is taken in the same turn of the event loop (the first chains of a replay, answers that arrived
 * together) has its mark in one durable commit, so one wait for the disk instead of one per action. Each
 * request still leaves only once its own mark is on disk; a failed commit (a full disk) fails every mark
 * in it, and none of those requests leaves.
 */
export class InFlightMarks {
  #waiting: { id: number; resolve: () => void; reject: (error: unknown) => void }[] = [];

  constructor(private readonly write: (ids: readonly number[]) => void) {}

  /** Resolves once this action is durably marked in flight. */
  mark(id: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      // The first mark of a turn writes them all once the turn's answers have been handled (setImmediate
      // runs after the I/O callbacks of the turn).
      if (this.#waiting.push({ id, resolve, reject }) === 1) setImmediate(() => this.#flush());
    });
  }

  #flush(): void {
    const batch = this.#waiting;
    this.#waiting = [];
    try {
      this.write(batch.map((waiting) => waiting.id));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    for (const waiting of batch) waiting.resolve();
  }
}
