import type { Stamp } from '../connection/server-clock.ts';
import type { OutboxRepo, OutboxRow } from '../db/repos/outbox-repo.ts';
import type { ChainMemory, ReadAction } from './action-kind.ts';

/** What the outbox needs of the server clock (connection/server-clock.ts). */
export interface SendClock {
  /** Keeps when an action was stamped, to re-date it once the site's clock is known. */
  remember(actionId: number, stamp: Stamp): void;
  /** An action's time re-dated by what the site answered since it was queued, or null. */
  redate(actionId: number): number | null;
  /** The site's time now as its answers tell it, or null before any answer. */
  siteNow(): number | null;
  forget(actionId: number): void;
}

export const NO_CLOCK: SendClock = { remember: () => {}, redate: () => null, siteNow: () => null, forget: () => {} };

/**
 * The site's `Date` is whole seconds, so its time as known here may read up to a second behind an action
 * stamped by an offset learned from another answer. Within that, the stamp is kept: a pause clamped back
 * a second would make the paused timer step back on screen and shorten the time the site keeps.
 */
export const SITE_CLOCK_RESOLUTION_SECONDS = 1;

/**
 * The time an action goes to the site with: re-dated once the site's clock is known, never before the
 * previous action of its chain, never after the site's known time to the second its `Date` tells (a
 * day-fast laptop never sends a start in the future). It is stored before sending, so what is sent is
 * what is queued; an action that may have landed keeps the times it was tried with (its kind's
 * `triedAgain`), so the reconciliation still finds it. What the action changed here follows (its kind's
 * `timed`: a session shows the times the site will keep).
 */
export class SendTimes {
  readonly #lastSent = new Map<string, number>();
  /** What the kinds' send-time hooks remember per chain (action-kind.ts ChainMemory). */
  readonly #memory = new Map<string, ChainMemory>();

  constructor(
    private readonly clock: SendClock,
    private readonly outbox: OutboxRepo,
  ) {}

  /** `action`: the row as its registered kind read it. */
  prepare(row: OutboxRow, action: ReadAction): OutboxRow {
    const redated = this.clock.redate(row.id) ?? row.actedAt;
    const siteNow = this.clock.siteNow();
    const latest = siteNow === null ? Infinity : siteNow + SITE_CLOCK_RESOLUTION_SECONDS;
    const at = Math.max(this.#lastSent.get(row.chain) ?? 0, Math.min(redated, latest));
    const memory = this.#memory.get(row.chain) ?? new Map<string, number>();
    this.#memory.set(row.chain, memory);
    if (at === row.actedAt) {
      action.timed(at, memory);
      return row;
    }
    const again = row.unknownOutcome ? action.triedAgain() : null;
    if (again !== null) this.outbox.replaceStored(row.id, again, at);
    else this.outbox.setActedAt(row.id, at);
    action.timed(at, memory);
    return { ...row, actedAt: at, payload: again ?? row.payload };
  }

  /** The action reached the site at this time: the chain's next one is never timed before it. */
  sent(row: OutboxRow): void {
    this.#lastSent.set(row.chain, Math.max(row.actedAt, this.#lastSent.get(row.chain) ?? 0));
    this.clock.forget(row.id);
  }
}
