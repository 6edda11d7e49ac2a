/**
 * Which stored kinds of action are the technicians' work: counted, shown and waited for. The queue names
 * no kind of its own: a feature registers the kinds that are its bookkeeping (outbox/action-kind.ts,
 * `bookkeeping`), run in the background and nobody's work to wait for.
 */
export class WorkKinds {
  #notWork: string[] = [];
  #param = '[]';

  notWork(names: Iterable<string>): void {
    this.#notWork = [...new Set([...this.#notWork, ...names])];
    this.#param = JSON.stringify(this.#notWork);
  }

  /** Whether a stored kind is work (what `WORK` says in SQL). */
  isWork(kind: string): boolean {
    return !this.#notWork.includes(kind);
  }

  /** The named parameter `WORK` reads. */
  get params(): { notWork: string } {
    return { notWork: this.#param };
  }
}

/** The rows that are work (SQL, with `WorkKinds.params` bound). */
export const WORK = 'kind NOT IN (SELECT value FROM json_each(@notWork))';
