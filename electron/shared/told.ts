/**
 * The order of what the core tells the renderer twice over: by an event, and in the answer of a read. The
 * web shell answers on one connection and tells on another, so an answer read before an event can reach
 * the page after it; taken then, the status chip said "Sending 2…" over "1 failed", or "Syncing…" after
 * the sync had ended, for good. Each state the core makes is numbered after the last (and after any of an
 * earlier run's: the numbers start from the clock); the page keeps the newest it has been told.
 */
export class TellOrder {
  #last = 0;

  /** The number of the state made now. */
  next(): number {
    this.#last = Math.max(this.#last + 1, Date.now() * 1000);
    return this.#last;
  }
}

/** Whether `next` was made before what is shown (and so is not shown over it). */
export const madeBefore = (next: { told: number }, shown: { told: number } | null): boolean =>
  shown !== null && next.told < shown.told;
