import { z } from 'zod';
import type { SettingsRepo } from '../db/repos/settings-repo.ts';

const OFFSET_KEY = 'clock.serverOffsetSeconds';

/**
 * The site's clock as this computer knows it: our clock plus the offset the `Date` of the site's answers
 * shows (the transport reports each one). Actions carry the site's time of when the technician acted,
 * so a laptop whose clock is wrong does not misdate the work log. The offset outlives a restart.
 */
export class ServerClock {
  #offset: number;

  constructor(
    private readonly settings: SettingsRepo,
    /** The local clock in milliseconds (tests move it). */
    readonly nowMs: () => number = Date.now,
  ) {
    this.#offset = settings.get(OFFSET_KEY, z.number()) ?? 0;
  }

  /** Told the site's clock (unix seconds) with each answer. */
  readonly observe = (serverSeconds: number): void => {
    const offset = serverSeconds - this.nowMs() / 1000;
    // Date has a one-second resolution: only a real drift is worth remembering.
    if (Math.abs(offset - this.#offset) >= 2) {
      this.#offset = Math.round(offset);
      this.settings.set(OFFSET_KEY, this.#offset);
    }
  };

  /** The local clock, unix seconds. */
  readonly now = (): number => Math.floor(this.nowMs() / 1000);

  /** Now on the site's clock, unix seconds: when the technician acts. */
  readonly actedAt = (): number => Math.floor(this.nowMs() / 1000 + this.#offset);
}
