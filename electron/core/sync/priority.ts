import type { ApiTransport } from '../api/transport.ts';
import { around } from './patient.ts';

/**
 * Who goes first on the link: while a guide the technician needs now is being kept (keep-now.ts), the
 * running sync asks nothing new of the site; what it has in flight finishes. The link's bandwidth and the
 * site's attention go to the guide the technician waits for, and the sync carries on after it.
 */
export class Priority {
  #holders = 0;
  #holds = 0;
  #waiting: (() => void)[] = [];

  /** How many holds there have been so far. */
  get holds(): number {
    return this.#holds;
  }

  /** Holds the sync back until the returned release is called (each holder releases once). */
  hold(): () => void {
    this.#holders++;
    this.#holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holders > 0) return;
      const waiting = this.#waiting;
      this.#waiting = [];
      for (const wake of waiting) wake();
    };
  }

  /** Resolves at once when nobody holds the link, else when the last holder releases it. */
  clear(): Promise<void> {
    if (this.#holders === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  get held(): boolean {
    return this.#holders > 0;
  }
}

/** The sync's transport, asking the site only while no guide the technician needs now is being kept. */
export function yielding(transport: ApiTransport, priority: Priority): ApiTransport {
  const after = async <T>(ask: () => Promise<T>): Promise<T> => {
    if (priority.held) await priority.clear();
    return ask();
  };
  return around(transport, after);
}

/**
 * Runs `call` (a request of the sync) and answers how long it took in ms, or undefined when a guide kept
 * now held the sync at its start or meanwhile: its time then counts that wait, which is no queue on the
 * link, and the lanes (pool.ts) are told nothing by it.
 */
export async function unheldTime<T>(
  priority: Pick<Priority, 'holds' | 'held'> | undefined,
  call: () => Promise<T>,
): Promise<{ value: T; ms: number | undefined }> {
  const [before, held, asked] = [priority?.holds, priority?.held ?? false, performance.now()];
  const value = await call();
  const ms = performance.now() - asked;
  return { value, ms: held || priority?.holds !== before ? undefined : ms };
}
