/**
 * The in-flight marks of the actions about to be sent, written together. Every chain whose next action
 * is taken in the same turn of the event loop (the first chains of a replay, answers that arrived
 * together) has its mark in one durable commit, so one wait for the disk instead of one per action. Each
 * request still leaves only once its own mark is on disk; a failed commit (a full disk) fails every mark
 * in it, and none of those requests leaves. The write may wait for the disk off the main thread (a
 * promise, Store.durable): the other chains' answers are handled meanwhile.
 */
export class InFlightMarks {
  #waiting: { id: number; resolve: () => void; reject: (error: unknown) => void }[] = [];
  #writing: NodeJS.Immediate | null = null;

  constructor(private readonly write: (ids: readonly number[]) => void | Promise<void>) {}

  /** Resolves once this action is durably marked in flight. */
  mark(id: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ id, resolve, reject });
      // Written at the latest once the turn's answers have been handled (setImmediate runs after the turn's
      // I/O callbacks), unless the replay's loop writes them first (flush).
      this.#writing ??= setImmediate(() => this.flush());
    });
  }

  /** Writes the marks waiting now (the replay's loop does, once it has taken the turn's actions). */
  flush(): void {
    if (this.#writing) clearImmediate(this.#writing);
    this.#writing = null;
    const batch = this.#waiting;
    this.#waiting = [];
    if (batch.length === 0) return;
    const fail = (error: unknown) => {
      for (const waiting of batch) waiting.reject(error);
    };
    const done = () => {
      for (const waiting of batch) waiting.resolve();
    };
    let written: void | Promise<void>;
    try {
      written = this.write(batch.map((waiting) => waiting.id));
    } catch (error) {
      fail(error);
      return;
    }
    if (written) written.then(done, fail);
    else done();
  }
}
