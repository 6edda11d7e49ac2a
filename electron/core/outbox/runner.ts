import { classify } from '../api/failure.ts';
import { SignedOutHere, type ApiTransport } from '../api/transport.ts';
import type { OutboxRow } from '../db/repos/outbox-repo.ts';
import { isStorageTrouble, outboxWaits } from '../db/disk-space.ts';
import { retryDelayMs } from './backoff.ts';
import { InFlightMarks } from './in-flight-marks.ts';
import { NO_CLOCK, SendTimes, type SendClock } from './send-time.ts';
import { realTimer, type OutboxTimer } from './outbox-timer.ts';
import type { ActionRegistry } from './registry.ts';
import { sortFailure, unstick, type FailureSorting } from './sort-failure.ts';
import type { ReplayContext, ReplayOutcome } from './replay-context.ts';

/**
 * Chains (sessions, quiz attempts) replayed side by side. Each action waits for its answer before the
 * next of its chain, so a link's round trip is paid once per action per chain: 8 at once halved the
 * replay of 240 actions over 50 ms and 150 ms links against 4 (npm run bench with BENCH_LINKS).
 */
export const CHAINS_AT_ONCE = 8;
/** After a full disk stopped a replay, the runner waits this long (or for "Send now") before trying again. */
const STORAGE_PAUSE_MS = 30_000;
const REBASES_PER_ATTEMPT = 5;

export interface RunnerDeps {
  context: Omit<ReplayContext, 'transport' | 'technician'>;
  /** The kinds the features registered: what reads, replays and times each row. */
  kinds: ActionRegistry;
  /**
   * A technician's own transport, or null when their sign-in is not kept: nobody else's is ever used for their work.
   */
  transportFor: (technician: number) => ApiTransport | null;
  /** The technicians whose work can be sent now (their sign-in is kept). */
  sendable: () => number[];
  /** The site refused a technician's token (401): their work waits until they sign in again. */
  refused: (technician: number) => void;
  nowMs: () => number;
  /** The site's clock: what re-dates and clamps the times sent (send-time.ts). */
  clock?: SendClock;
  random: () => number;
  onChange: (sessionId: string) => void;
  /** A full disk began or stopped holding the replay (`storageHeld`). */
  onStorageHeld?: () => void;
  /** A request got no answer at all: the site cannot be reached (its next answer wakes the outbox). */
  onNoAnswer?: () => void;
  /**
   * Writes in-flight marks in one commit that is on the disk when it returns or its promise resolves, the
   * work journal with them (db/work-journal.ts).
   */
  markInFlight?: (ids: readonly number[]) => void | Promise<void>;
  log: (message: string) => void;
  timer?: OutboxTimer;
}

/**
 * Replays the outbox: the first action of each chain, a few chains at a time, chains independent, each
 * action under the sign-in of the technician who did it and no other.
 *
 *   due ──▶ in flight ──▶ done (removed with its effect, one transaction)
 *              │  ├──▶ again (rebased on the site's revision) ──▶ in flight
 *              │  ├──▶ network / 5xx / 429 ──▶ pending, backoff with full jitter (Retry-After honoured),
 *              │  │                           outcome unknown: reconciled before a non-idempotent resend
 *              │  ├──▶ 401 ──▶ pending; that technician's token is forgotten: their work waits for them to sign in
 *              │  └──▶ other 4xx / refused for good ──▶ failed (shown; retry or discard; holds its chain only)
 *   unreadable row ──▶ failed with the reason (set aside; the rest drains)
 */
export class OutboxRunner {
  #draining: Promise<void> | null = null;
  #again = false;
  /** Cancels the wait for the next due action, while one is set. */
  #cancelWait: (() => void) | null = null;
  #waitUntil = 0;
  #closed = false;
  readonly #times: SendTimes;
  /** Actions the site asked to wait (Retry-After): coming back online does not hurry them. */
  readonly #askedToWait = new Set<number>();
  readonly #failures: FailureSorting;
  /** Until when a full (or failing) disk holds the replay (0: not held), and the error that held it. */
  #storageHeldUntil = 0;
  #storageError: unknown = null;
  readonly #marks: InFlightMarks;
  /** Actions whose request is out now, and those of them out when "Send now" was pressed. */
  readonly #out = new Set<number>();
  readonly #againNow = new Set<number>();

  /**
   * Runs in the process that holds the data folder's lock (db/folder-lock.ts): no other copy's actions are in flight.
   */
  constructor(private readonly deps: RunnerDeps) {
    this.#times = new SendTimes(deps.clock ?? NO_CLOCK, deps.context.outbox);
    this.#failures = { ...deps, outbox: deps.context.outbox, askedToWait: this.#askedToWait };
    this.#marks = new InFlightMarks(deps.markInFlight ?? ((ids) => deps.context.outbox.markAllInFlight(ids)));
    this.#recoverInFlight('were in flight when Fieldguide stopped');
  }

  /** What stopped the last replay when a full or failing disk did (and nothing has been sent since); else null. */
  get storageHeld(): unknown {
    return this.#storageHeldUntil > 0 ? this.#storageError : null;
  }

  /** "Send now": a full disk held the replay; try again at once. */
  releaseStorageHold(): void {
    this.#holdUntil(0);
  }

  /** A full or failing disk stopped a write of the outbox: the replay waits a while (or for Send now), said once. */
  holdFor(error: unknown): void {
    if (this.#storageHeldUntil === 0) this.deps.log(outboxWaits(error));
    this.#storageError = error;
    this.#holdUntil(this.deps.nowMs() + STORAGE_PAUSE_MS);
  }

  /** Sets (0: ends) the full disk's hold, said when it begins or ends. */
  #holdUntil(until: number): void {
    const was = this.#storageHeldUntil > 0;
    this.#storageHeldUntil = until;
    if (was !== until > 0) this.deps.onStorageHeld?.();
  }

  /** Replays what is due; resolves when nothing more can go now. */
  drain(): Promise<void> {
    if (this.#draining) {
      this.#again = true;
      return this.#draining;
    }
    this.#draining = this.#loop().finally(() => {
      this.#draining = null;
      this.#schedule();
    });
    return this.#draining;
  }

  kick(): void {
    this.drain().catch((error: unknown) => this.deps.log(`The outbox could not replay: ${describe(error)}`));
  }

  /**
   * Back online (a network event, or an answer after none): every waiting chain of the work goes now, at
   * once, and so does an action shown as stuck that is not stuck by today's rule (one an earlier version
   * marked when the network was away). What the site asked to wait for (Retry-After) still waits, and so
   * does a hidden check (its own times).
   */
  wake(): void {
    const { outbox } = this.deps.context;
    unstick(outbox, this.deps.nowMs());
    outbox.wake(this.deps.nowMs(), [...this.#askedToWait]);
    this.kick();
  }

  close(): Promise<void> {
    this.#closed = true;
    this.#cancelWait?.();
    return this.#draining ?? Promise.resolve();
  }

  /** Up to CHAINS_AT_ONCE chains in flight; a chain's next action starts as soon as its last one ends. */
  async #loop(): Promise<void> {
    const active = new Map<string, Promise<void>>();
    // A hold that is over is forgotten (or it would schedule this loop again at once, for ever); then rows
    // left in flight by a replay a full disk stopped half-way go back (only this process sends: it holds the lock).
    if (this.#storageHeldUntil <= this.deps.nowMs()) this.#holdUntil(0);
    if (this.#storageHeldUntil === 0) this.#recoverInFlight('were stopped by a full disk');
    do {
      this.#again = false;
      for (;;) {
        const held = this.#storageHeldUntil > this.deps.nowMs();
        const sendable = this.#closed || held ? [] : this.deps.sendable();
        if (sendable.length > 0) {
          // Only the free places' worth, of chains not being sent (read after each answer: one place, mostly).
          const free = CHAINS_AT_ONCE - active.size;
          const due =
            free > 0 ? this.deps.context.outbox.due(this.deps.nowMs(), free, sendable, [...active.keys()]) : [];
          for (const row of due) {
            if (active.size >= CHAINS_AT_ONCE) break;
            const transport = row.technician === null ? null : this.deps.transportFor(row.technician);
            if (!transport || row.technician === null) continue;
            active.set(
              row.chain,
              this.#replay(row, row.technician, transport).finally(() => active.delete(row.chain)),
            );
          }
          // The actions just taken have queued their in-flight marks: one commit for them all, now.
          this.#marks.flush();
        }
        if (active.size === 0) break;
        await Promise.race(active.values());
        // Answers that arrived together end their chains' turns together: one look for what is due next.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } while (this.#again);
  }

  /** One action, never rejecting: a full disk holds the whole replay for a while instead of spinning. */
  async #replay(row: OutboxRow, technician: number, transport: ApiTransport): Promise<void> {
    this.#out.add(row.id);
    try {
      const unanswered = await this.#replayOne(row, technician, transport);
      this.#holdUntil(0);
      // Out when "Send now" was pressed, and no answer came (the network the technician saw come back was
      // still away when it left): it goes again now, not after its backoff. An answer of the site's (busy,
      // refused) came after the press, and is kept to.
      if (this.#againNow.delete(row.id) && unanswered) this.#record(() => this.deps.context.outbox.dueNow(row.id));
    } catch (error) {
      if (isStorageTrouble(error)) this.holdFor(error);
      else this.deps.log(`Outbox action ${row.id} (${row.kind}) could not be replayed: ${(error as Error).message}`);
    } finally {
      this.#out.delete(row.id);
      this.#againNow.delete(row.id);
    }
  }

  /**
   * "Send now" (the caller has made every waiting action due): an action out at that moment whose request
   * then fails was sent before the technician asked, and goes again at once instead of after its backoff.
   */
  sendNowPressed(): void {
    for (const id of this.#out) this.#againNow.add(id);
  }

  /** Replays one action; true when it ended without an answer from the site (no connection, no reply in time). */
  async #replayOne(row: OutboxRow, technician: number, transport: ApiTransport): Promise<boolean> {
    const { outbox } = this.deps.context;
    const kind = this.deps.kinds.kind(row.kind);
    const read = kind ? kind.read(row) : { ok: false as const, message: `unknown action "${row.kind}"` };
    if (!kind || !read.ok) {
      const why = read.ok ? `unknown action "${row.kind}"` : read.message;
      outbox.fail(row.id, why);
      this.deps.log(`Outbox action ${row.id} could not be read and was set aside: ${why}`);
      this.deps.onChange(row.chain);
      return false;
    }
    // What the kind sends, looks up and records is this technician's: their transport, their name.
    const ctx: ReplayContext = { ...this.deps.context, transport, technician };
    let current = this.#times.prepare(row, read.action);
    let unanswered = false;
    try {
      for (let rebase = 0; ; rebase++) {
        const action = kind.read(current);
        if (!action.ok) {
          outbox.fail(current.id, action.message);
          break;
        }
        await this.#marks.mark(current.id);
        const outcome: ReplayOutcome = await action.action.replay(ctx);
        if (this.#ended(current, outcome)) break;
        if (rebase >= REBASES_PER_ATTEMPT) {
          const at = this.deps.nowMs() + retryDelayMs(current.attempts + 1, this.deps.random);
          this.#record(() => outbox.retryLater(current.id, at, 'The site kept changing; trying again later.', false));
          break;
        }
        current = outbox.get(current.id)!;
      }
    } catch (error) {
      if (isStorageTrouble(error)) throw error;
      if (error instanceof SignedOutHere) {
        // Its technician signed out while it was on its way: nothing more went; it waits for them, as it was.
        this.#record(() => outbox.retryLater(current.id, 0, 'Sign in again to send this.', row.unknownOutcome));
        this.deps.log(`Outbox action ${row.id} (${row.kind}) waits: its technician signed out while it was sent.`);
        this.deps.onChange(row.chain);
        return false;
      }
      const failed = classify(error).kind;
      unanswered = failed === 'unreachable' || failed === 'timeout';
      // An earlier attempt that may have landed stays "may have landed" whatever this attempt's answer was.
      this.#record(() => sortFailure(this.#failures, outbox.get(current.id) ?? current, error, row.unknownOutcome));
    }
    this.deps.onChange(row.chain);
    return unanswered;
  }

  /** Records how a replay ended; false when the kind rebased it and it goes again now. */
  #ended(row: OutboxRow, outcome: ReplayOutcome): boolean {
    const { outbox } = this.deps.context;
    if (outcome.type === 'done') this.#times.sent(row);
    else if (outcome.type === 'failed') this.#record(() => outbox.fail(row.id, outcome.message));
    else if (outcome.type === 'wait')
      this.#record(() => outbox.retryLater(row.id, outcome.atMs, outcome.message, row.unknownOutcome));
    return outcome.type !== 'again';
  }

  /**
   * Records how a try ended (to wait, to try again later, refused) in a commit that does not wait for the
   * disk (Store.replaceable): the action was marked in flight on the disk before it left, so a power cut
   * that takes the record back leaves it in flight, and it is looked for on the site before it is sent
   * again (`recoverInFlight`). On a slow disk a flush each held the main process as the network went away.
   */
  #record(write: () => void): void {
    this.deps.context.transaction(write);
  }

  #recoverInFlight(why: string): void {
    try {
      const recovered = this.deps.context.outbox.recoverInFlight();
      if (recovered > 0) this.deps.log(`${recovered} action(s) ${why}; they will be checked before being sent again.`);
    } catch (error) {
      // A full or failing disk: they stay in flight until the next replay can write.
      if (!isStorageTrouble(error)) throw error;
    }
  }

  /** Waits for the next due action; a wait already set for no later stays. */
  #schedule(): void {
    if (this.#closed) return;
    const held = this.#storageHeldUntil > 0;
    const next = held ? this.#storageHeldUntil : this.deps.context.outbox.nextDue(this.deps.sendable());
    if (next === null) return;
    const wait = Math.min(Math.max(0, next - this.deps.nowMs()), 60_000);
    const until = this.deps.nowMs() + wait;
    if (this.#cancelWait && this.#waitUntil <= until) return;
    this.#cancelWait?.();
    this.#waitUntil = until;
    this.#cancelWait = (this.deps.timer ?? realTimer)(() => {
      this.#cancelWait = null;
      return this.drain().catch((error: unknown) => this.deps.log(`The outbox could not replay: ${describe(error)}`));
    }, wait);
  }
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));
