import { z } from 'zod';
import type { RanUnwatched } from '../../contract.ts';
import type { Stamp } from '../connection/server-clock.ts';
import type { Store } from '../db/store.ts';

/** When Fieldguide last showed a sign of life: the local wall clock and the site's, seconds. */
const ALIVE_KEY = 'clock.aliveAt';
const alive = z.object({ wall: z.number(), at: z.number() });
/** How often a running Fieldguide notes that it runs. */
export const ALIVE_EVERY_MS = 60_000;
/**
 * A gap between two signs of life longer than this is time nobody could have worked in the app: it was
 * closed, or the laptop slept. Shorter ones (a restart, a lid closed while a wheel is changed) are not asked about.
 */
export const UNWATCHED_SECONDS = 30 * 60;

export interface UnwatchedDeps {
  store: Store;
  clock: { stamp(): Stamp };
  /** Sessions that now carry a stretch to answer (their views change). */
  onChange: (sessionIds: string[]) => void;
  log: (message: string) => void;
  /** How often it notes that it runs: ALIVE_EVERY_MS (a test's shorter). */
  everyMs: number;
}

/**
 * A session left running overnight counted the night as work, with no word (a walk's second day). Fieldguide
 * notes that it runs every minute; at start, and after a laptop's sleep, a gap longer than UNWATCHED_SECONDS
 * since the last note is kept on every session whose clock was running, for its technician to say whether it
 * was work (work-sessions.ts `answerRanUnwatched`). Nothing is sent until they answer: a pause they did not
 * make never goes under their name.
 */
export class Unwatched {
  #timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: UnwatchedDeps) {}

  /** Notes a sign of life now and every `everyMs` until `stop`. */
  start(): void {
    this.#beatSafely();
    this.#timer ??= setInterval(() => this.#beatSafely(), this.deps.everyMs);
    this.#timer.unref();
  }

  /** The last sign of life, as Fieldguide closes: a stretch asked about later begins here. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#beatSafely();
  }

  /** A full or failing disk misses a note (said in the log): the next one is tried a minute later. */
  #beatSafely(): void {
    try {
      this.beat();
    } catch (error) {
      this.deps.log(
        `Fieldguide could not note that it runs: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /**
   * A sign of life: the running sessions take the gap since the last one when it is long. A stretch not yet
   * answered grows to the new end (nothing was done in the session in between, or it would be answered).
   */
  beat(): void {
    const { store } = this.deps;
    const now = this.deps.clock.stamp();
    const last = store.settings.get(ALIVE_KEY, alive);
    const changed: string[] = [];
    store.replaceable(() => {
      if (last && now.wall - last.wall >= UNWATCHED_SECONDS) {
        for (const session of store.sessions.ranUnwatched.running()) {
          const ran = stretch(session, last.at, now.at);
          if (!ran) continue;
          store.sessions.ranUnwatched.set(session.id, ran);
          changed.push(session.id);
        }
      }
      store.settings.set(ALIVE_KEY, { wall: now.wall, at: now.at });
    });
    if (changed.length > 0) this.deps.onChange(changed);
  }
}

/** The stretch a running session counted unseen: from the last sign of life (or an earlier unanswered one). */
function stretch(
  session: { startedAt: number; ran: RanUnwatched | null },
  lastAt: number,
  nowAt: number,
): RanUnwatched | null {
  const from = session.ran?.from ?? Math.max(lastAt, session.startedAt);
  return nowAt > from ? { from, to: nowAt } : null;
}
