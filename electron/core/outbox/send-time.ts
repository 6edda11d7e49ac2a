import type { OutboxRepo, OutboxRow } from '../db/repos/outbox-repo.ts';
import type { SessionsRepo } from '../db/repos/sessions-repo.ts';

/** What the outbox needs of the server clock (connection/server-clock.ts). */
export interface SendClock {
  /** An action's time re-dated by what the site answered since it was queued, or null. */
  redate(actionId: number): number | null;
  /** The site's time now as its answers tell it, or null before any answer. */
  siteNow(): number | null;
  forget(actionId: number): void;
}

export const NO_CLOCK: SendClock = { redate: () => null, siteNow: () => null, forget: () => {} };

/**
 * The site's `Date` is whole seconds, so its time as known here may read up to a second behind an action
 * stamped by an offset learned from another answer. Within that, the stamp is kept: a pause clamped back
 * a second would make the paused timer step back on screen and shorten the time the site keeps.
 */
export const SITE_CLOCK_RESOLUTION_SECONDS = 1;

/**
 * The time an action goes to the site with: re-dated once the site's clock is known, never before the
 * previous action of its chain, never after the site's known time to the second its `Date` tells (a
 * day-fast laptop never sends a start in the future). It is stored before sending, so what is sent is what
 * is queued; a start that may have landed keeps the times it was tried with, so the reconciliation still
 * finds it.
 */
export class SendTimes {
  readonly #lastSent = new Map<string, number>();
  /** How far each chain's last pause moved: the resume after it moves the pause's length by the difference. */
  readonly #pauseMoved = new Map<string, number>();

  constructor(
    private readonly clock: SendClock,
    private readonly outbox: OutboxRepo,
    private readonly sessions: SessionsRepo,
    private readonly now: () => number,
  ) {}

  prepare(row: OutboxRow): OutboxRow {
    const redated = this.clock.redate(row.id) ?? row.actedAt;
    const siteNow = this.clock.siteNow();
    const latest = siteNow === null ? Infinity : siteNow + SITE_CLOCK_RESOLUTION_SECONDS;
    const at = Math.max(this.#lastSent.get(row.chain) ?? 0, Math.min(redated, latest));
    if (row.kind === 'pause' || row.kind === 'suspend') this.#pauseMoved.set(row.chain, at - row.actedAt);
    if (at === row.actedAt) return row;
    let payload = row.payload;
    if (row.kind === 'start' && row.unknownOutcome) {
      const parsed = JSON.parse(payload) as { triedAt?: number[] };
      payload = JSON.stringify({ ...parsed, triedAt: [...(parsed.triedAt ?? []), row.actedAt] });
      this.outbox.replacePayload(row.id, JSON.parse(payload), at);
    } else {
      this.outbox.setActedAt(row.id, at);
    }
    this.#follow(row, at);
    return { ...row, actedAt: at, payload };
  }

  /** The action reached the site at this time: the chain's next one is never timed before it. */
  sent(row: OutboxRow): void {
    this.#lastSent.set(row.chain, Math.max(row.actedAt, this.#lastSent.get(row.chain) ?? 0));
    this.clock.forget(row.id);
  }

  /** The session on this laptop shows the times the site will keep. */
  #follow(row: OutboxRow, at: number): void {
    const session = this.sessions.state(row.chain);
    if (!session) return;
    const patch =
      row.kind === 'start'
        ? { startedAt: at }
        : (row.kind === 'pause' || row.kind === 'suspend') && session.pausedAt === row.actedAt
          ? { pausedAt: at }
          : row.kind === 'resume' || row.kind === 'assume'
            ? {
                pauseSeconds: Math.max(
                  0,
                  session.pauseSeconds + at - row.actedAt - (this.#pauseMoved.get(row.chain) ?? 0),
                ),
              }
            : (row.kind === 'finish' || row.kind === 'cancel') && session.endedAt === row.actedAt
              ? { endedAt: at }
              : null;
    if (patch) this.sessions.update(session.id, patch, this.now());
  }
}
