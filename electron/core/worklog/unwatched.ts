import os from 'node:os';
import { z } from 'zod';
import type { RanUnwatched } from '../../contract.ts';
import type { Stamp } from '../connection/server-clock.ts';
import type { Store } from '../db/store.ts';

/** When Fieldguide last showed a sign of life: the local wall clock and the computer's uptime, seconds. */
const ALIVE_KEY = 'clock.aliveAt';
const alive = z.object({ wall: z.number(), uptime: z.number() });
/** The stretches a session keeps unanswered at most (the newest): a month of nights left running. */
const STRETCHES_KEPT = 31;
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
  /**
   * Seconds since the computer started, sleep included (os.uptime): a clock set forward by hand moves the wall
   * clock, not this one, and is not a night; a restart begins it again, and then the wall clock is taken.
   */
  uptime?: () => number;
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
   * A sign of life: each running session takes the gap since the last one, when it is long, as a stretch of
   * its own after any not yet answered (a second night is not one stretch with the day between). The gap is
   * the shorter of the wall clock's and the uptime's: a clock set forward by hand is not a night (the walk's
   * question of 24 h over a day Fieldguide was open), a restart of the computer leaves the wall clock's.
   */
  beat(): void {
    const { store } = this.deps;
    const now = this.deps.clock.stamp();
    const uptime = (this.deps.uptime ?? os.uptime)();
    const last = store.settings.get(ALIVE_KEY, alive);
    const changed: string[] = [];
    store.replaceable(() => {
      const gap = last ? gapSeconds(now.wall - last.wall, uptime - last.uptime) : 0;
      if (gap >= UNWATCHED_SECONDS) {
        for (const session of store.sessions.ranUnwatched.running()) {
          const ran = withStretch(session, now.at - gap, now.at);
          if (!ran) continue;
          store.sessions.ranUnwatched.set(session.id, ran);
          changed.push(session.id);
        }
      }
      store.settings.set(ALIVE_KEY, { wall: now.wall, uptime });
    });
    if (changed.length > 0) this.deps.onChange(changed);
  }
}

/**
 * Seconds nobody could work in the app, from the wall clock's and the uptime's gaps since the last note: the
 * uptime's when it ran on (the same start of the computer), never more than the wall's.
 */
export const gapSeconds = (wall: number, uptime: number): number =>
  Math.floor(uptime >= 0 ? Math.min(wall, uptime) : wall);

/** A session's stretches with one more (from its start at the earliest, after the ones before). */
function withStretch(
  session: { startedAt: number; ran: RanUnwatched | null },
  from: number,
  to: number,
): RanUnwatched | null {
  const before = session.ran?.stretches ?? [];
  const start = Math.max(Math.floor(from), session.startedAt, before.at(-1)?.to ?? 0);
  if (to <= start) return null;
  return { stretches: [...before, { from: start, to }].slice(-STRETCHES_KEPT) };
}
