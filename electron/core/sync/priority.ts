import type { ApiTransport } from '../api/transport.ts';
import { around } from './patient.ts';

/**
 * Who goes first on the link: while a guide the technician needs now is being kept (keep-now.ts), the
 * running sync asks nothing new of the site; what it has in flight finishes. The link's bandwidth and the
 * site's attention go to the guide the technician waits for, and the sync carries on after it.
 */
export class Priority {
  #holders = 0;
  #waiting: (() => void)[] = [];

  /** Holds the sync back until the returned release is called (each holder releases once). */
  hold(): () => void {
    this.#holders++;
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
