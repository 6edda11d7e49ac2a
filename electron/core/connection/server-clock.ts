import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import type { SettingsRepo } from '../db/repos/settings-repo.ts';

const OFFSET_KEY = 'clock.serverOffsetSeconds';
/** A gap between the wall clock and the monotonic clock larger than this is a jump of the wall clock. */
export const JUMP_SECONDS = 90;
/**
 * Answers that disagree with the offset learned move it only when this many of them agree with each
 * other, with none agreeing with the offset in between, over at least this long: a site's clock that was
 * corrected. A node behind the same address whose clock is off never gets there while the others answer.
 */
export const CHANGE_ANSWERS = 3;
export const CHANGE_SECONDS = 30;
/** `Date` has a one-second resolution: offsets closer than this are the same. */
const SAME_SECONDS = 2;

/** When a technician acted: the site's time as best known then, and what re-dates it once the site answers. */
export interface Stamp {
  /** On the site's clock, unix seconds, as known when the technician acted. */
  at: number;
  /** The local wall clock then, seconds. */
  wall: number;
  /** The stretch of consistent wall clock it was taken in. */
  segment: number;
}

/**
 * The site's clock as this computer knows it: the local wall clock plus an offset learned from the `Date`
 * of every answer. The wall clock can jump (set by hand, corrected, a day off); the monotonic clock cannot,
 * so each reading compares the two:
 *
 *   wall ran slower than monotonic (set back) ──▶ same group, offset corrected by the gap: site time
 *                                                 stays continuous, the wall is not trusted
 *   wall ran faster (set forward, or the laptop slept: the two look alike) ──▶ a new group whose offset is
 *                                                 carried over until the site answers (provisional)
 *
 * A group is a run of segments whose offsets are known relative to each other; one answer of the site
 * inside a group fixes all of them, and the actions stamped in it are re-dated (`redate`). A group never
 * learned stays provisional: the outbox still clamps what it sends to the site's known time.
 *
 * One site, one clock: once a group is learned, an answer that disagrees is a candidate, not the truth
 * (a load balancer's other node, a proxy's clock); the offset moves only on a consistent change
 * (CHANGE_ANSWERS over CHANGE_SECONDS), or when the monotonic clock shows the wall clock jumped.
 */
export class ServerClock {
  #groups: { base: number; learned: boolean }[];
  #segments: { group: number; rel: number }[] = [{ group: 0, rel: 0 }];
  #last: { wall: number; mono: number };
  #answer: { site: number; mono: number } | null = null;
  /** Answers that disagree with the learned offset, agreeing with each other, since `mono`. */
  #candidate: { group: number; offset: number; answers: number; mono: number } | null = null;
  readonly #stamps = new Map<number, Stamp>();
  /** The offset kept for the next start (settings), rounded. */
  #stored: number;
  /** The offset last told to `onOffset`'s listeners. */
  #told: number;
  readonly #listeners = new Set<(offset: number) => void>();

  constructor(
    private readonly settings: SettingsRepo,
    /** The local wall clock in milliseconds (tests move it). */
    readonly nowMs: () => number = Date.now,
    /** A monotonic clock in milliseconds (tests move it with the wall clock, or not: a jump). */
    private readonly monoMs: () => number = () => performance.now(),
  ) {
    this.#stored = settings.get(OFFSET_KEY, z.number()) ?? 0;
    this.#groups = [{ base: this.#stored, learned: false }];
    this.#last = { wall: nowMs(), mono: monoMs() };
    this.#told = this.#stored;
  }

  /** Told the site's clock (unix seconds) with each answer: learned at once, then moved only on a consistent change. */
  readonly observe = (serverSeconds: number): void => {
    const { wall, mono } = this.#read();
    const segment = this.#segments.at(-1)!;
    const offset = serverSeconds - wall / 1000;
    const group = this.#groups[segment.group]!;
    const differs = group.learned && Math.abs(offset - (group.base + segment.rel)) >= SAME_SECONDS;
    if (differs) {
      const candidate = this.#candidate;
      const agrees = candidate?.group === segment.group && Math.abs(offset - candidate.offset) < SAME_SECONDS;
      const change = agrees
        ? { ...candidate, answers: candidate.answers + 1 }
        : { group: segment.group, offset, answers: 1, mono };
      this.#candidate = change;
      if (change.answers < CHANGE_ANSWERS || mono - change.mono < CHANGE_SECONDS * 1000) return;
    }
    this.#candidate = null;
    if (differs || !group.learned) this.#learn(group, offset - segment.rel);
    this.#answer = { site: serverSeconds, mono };
  };

  /** The local clock, unix seconds. */
  readonly now = (): number => Math.floor(this.nowMs() / 1000);

  /** Now on the site's clock, unix seconds: when the technician acts. */
  readonly actedAt = (): number => this.stamp().at;

  /** When the technician acts, with what re-dates it later. */
  stamp(): Stamp {
    const { wall } = this.#read();
    const segment = this.#segments.length - 1;
    return { at: Math.floor(wall / 1000 + this.#offsetOf(segment)), wall: wall / 1000, segment };
  }

  /** The site's time now as its last answer and the monotonic clock since tell it; null before any answer. */
  siteNow(): number | null {
    const { mono } = this.#read();
    return this.#answer ? Math.floor(this.#answer.site + (mono - this.#answer.mono) / 1000) : null;
  }

  /**
   * Seconds to add to the local wall clock to read the site's, as known now: what a window counts a
   * running session's time with (the session's times are on the site's clock), exactly as `stamp` does.
   */
  offset(): number {
    this.#read();
    return this.#offsetOf(this.#segments.length - 1);
  }

  /** Runs `listener` when the offset moves (learned, changed, or the wall clock jumped back). */
  onOffset(listener: (offset: number) => void): void {
    this.#listeners.add(listener);
  }

  /** Keeps an action's stamp (this process only: the monotonic clock does not outlive it). */
  remember(actionId: number, stamp: Stamp): void {
    this.#stamps.set(actionId, stamp);
  }

  /** An action's time re-dated by what the site answered since, if its group has been learned. */
  redate(actionId: number): number | null {
    this.#read();
    const stamp = this.#stamps.get(actionId);
    if (!stamp) return null;
    const segment = this.#segments[stamp.segment]!;
    return this.#groups[segment.group]!.learned ? Math.floor(stamp.wall + this.#offsetOf(stamp.segment)) : null;
  }

  /** The action was sent (or dropped): its stamp is no longer needed. */
  forget(actionId: number): void {
    this.#stamps.delete(actionId);
  }

  #learn(group: { base: number; learned: boolean }, base: number): void {
    group.base = base;
    group.learned = true;
    this.#keep();
    this.#tell();
  }

  /**
   * Keeps the offset for the next start once it is known (learned, or carried through a clock set back): a
   * clock set a day forward, learned, then set back kept "a day behind", and the next start dated everything
   * a day early until the site answered (a walk's night then ended before it began, and was not asked about).
   */
  #keep(): void {
    const segment = this.#segments.at(-1)!;
    if (!this.#groups[segment.group]!.learned) return;
    const offset = Math.round(this.#offsetOf(this.#segments.length - 1));
    if (Math.abs(offset - this.#stored) >= SAME_SECONDS) {
      this.#stored = offset;
      this.settings.set(OFFSET_KEY, this.#stored);
    }
  }

  /** Tells the listeners the offset when it moved (learned, changed, or a jump back): rare events. */
  #tell(): void {
    const offset = this.#offsetOf(this.#segments.length - 1);
    if (offset === this.#told) return;
    this.#told = offset;
    for (const listener of this.#listeners) listener(offset);
  }

  #offsetOf(segment: number): number {
    const { group, rel } = this.#segments[segment]!;
    return this.#groups[group]!.base + rel;
  }

  /** Reads both clocks; a gap between them since the last reading starts a new segment. */
  #read(): { wall: number; mono: number } {
    const wall = this.nowMs();
    const mono = this.monoMs();
    const gap = (wall - this.#last.wall - (mono - this.#last.mono)) / 1000;
    const current = this.#segments.at(-1)!;
    if (gap < -JUMP_SECONDS) {
      this.#segments.push({ group: current.group, rel: current.rel - gap });
      this.#last = { wall, mono };
      this.#keep();
      this.#tell();
    } else if (gap > JUMP_SECONDS) {
      this.#groups.push({ base: this.#offsetOf(this.#segments.length - 1), learned: false });
      this.#segments.push({ group: this.#groups.length - 1, rel: 0 });
    }
    this.#last = { wall, mono };
    return { wall, mono };
  }
}
