import type { OthersWork, OutboxSummary, OutboxView } from '../../contract.ts';
import type { ApiTransport } from '../api/transport.ts';
import { chainKey, chainOf } from '../db/chains.ts';
import type { StoredKind } from '../db/repos/outbox-repo.ts';
import { TellOrder } from '../../shared/told.ts';
import type { Store } from '../db/store.ts';
import type { EventHub } from '../events.ts';
import { isStorageTrouble, storageFailure } from '../db/disk-space.ts';
import { AppFailure } from '../result.ts';
import { outboxActions } from './outbox-view.ts';
import { ActionRegistry, type OutboxFeature } from './registry.ts';
import type { QueuedAt } from './replay-context.ts';
import { NO_CLOCK, type SendClock } from './send-time.ts';
import type { OutboxTimer } from './outbox-timer.ts';
import { OutboxRunner } from './runner.ts';

/** How often, at most, a replay tells the views what moved (the first move after a quiet time: at once). */
const TELL_EVERY_MS = 200;
/**
 * How long a try may be out before the views are told it is: a slow site's answer took seconds, and the Sync
 * centre said meanwhile "Sent, no answer came" and the last try's "does not answer", not "Sending…". A try
 * answered sooner tells them itself (a replay on a quick site tells nothing more).
 */
const OUT_SAID_MS = 300;
/**
 * How many of a technician's actions the outbox screen lists (and every failed one). Every one was listed:
 * reading and checking 3,000 took 26 ms of the main process (30,000: 312 ms), then describing and drawing
 * them, each time a replay told the screen (every 200 ms).
 */
export const LISTED = 200;

export interface OutboxDeps {
  store: Store;
  events: EventHub;
  /** A technician's own transport, or null when their sign-in is not kept. */
  transportFor: (technician: number) => ApiTransport | null;
  /** Technicians whose work can be sent now. */
  sendable: () => number[];
  /** The site refused this technician's token. */
  refused: (technician: number) => void;
  /** The current technician: what the views show and what "retry" and "discard" may touch. */
  current: () => number | null;
  /** What waits for the other technicians (counts only). */
  others: () => OthersWork[];
  nowMs: () => number;
  /** The site's clock: re-dates and clamps the times sent (send-time.ts). */
  clock?: SendClock;
  /** A request of the outbox got no answer: the site cannot be reached. */
  onNoAnswer?: () => void;
  /** Before "Send now" sends: a site thought away is asked again, by a check that leaves now. */
  askAfresh?: () => Promise<void>;
  random?: () => number;
  log: (message: string) => void;
  /** How the outbox waits for the next due action (tests: their simulated clock). */
  timer?: OutboxTimer;
  /**
   * The disk's reserve for the work (db/disk-space.ts): said while given back, and once used up too (work refused),
   * tried again by Send now.
   */
  reserve?: { readonly gone: boolean; readonly refusing: boolean; again(): boolean };
}

/**
 * The durable queue of what technicians did offline, replayed to the site by its runner, each action with
 * its own technician's sign-in: what waits, "send now", retry and discard of failed actions. A technician
 * sees and settles only their own; the others' work is counted apart. It knows chains, order and retries,
 * and no kind of action: each feature registers its kinds (`register`, action-kind.ts) and queues them
 * with `enqueue` inside its own transactions; the runner wakes by itself.
 */
export class Outbox {
  readonly #runner: OutboxRunner;
  readonly #kinds = new ActionRegistry();
  #waking = false;
  /** Chains the replay moved since the renderer was last told: told once a turn, not once an action. */
  readonly #movedChains = new Set<string>();
  #telling: { cancel: () => void } | null = null;
  /** When the views were last told (performance.now()): a replay tells them at most every TELL_EVERY_MS. */
  #toldAt = Number.NEGATIVE_INFINITY;
  /** The summaries' order (OutboxSummary.told). */
  readonly #order = new TellOrder();
  /** When a summary was last sent (performance.now()), and the wait to say the tries just marked are out. */
  #saidAt = Number.NEGATIVE_INFINITY;
  #outSaid: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly deps: OutboxDeps) {
    const { store } = deps;
    const now = (): number => Math.floor(deps.nowMs() / 1000);
    this.#runner = new OutboxRunner({
      kinds: this.#kinds,
      context: {
        // What a handler writes once the site has answered is the site's to give again: the action stays
        // durably "in flight" until this commit, so a power cut that undoes it leaves an action that may have
        // landed, which the next replay checks on the site before sending (runner.ts). Only the in-flight
        // mark, before the request, must wait for the disk: one flush per action instead of two.
        transaction: (fn) => store.replaceable(fn),
        outbox: store.outbox,
        enqueue: (kind, payload, at) => this.enqueue(kind, payload, at),
        now,
        nowMs: deps.nowMs,
      },
      transportFor: deps.transportFor,
      sendable: deps.sendable,
      refused: (technician) => {
        deps.refused(technician);
        this.changed();
      },
      nowMs: deps.nowMs,
      ...(deps.clock ? { clock: deps.clock } : {}),
      ...(deps.onNoAnswer ? { onNoAnswer: deps.onNoAnswer } : {}),
      random: deps.random ?? Math.random,
      onChange: (chain) => this.#moved(chain),
      onStorageHeld: () => this.changed(),
      // The work journal is written with the marks (Store.durable): every earlier answer is in it before a
      // request leaves. Not flushed: the marks' own commit is on the disk before the requests leave, and
      // the main process waits for the disk off its thread, answering the screens meanwhile.
      markInFlight: async (ids) => {
        await store.durable(() => store.outbox.markAllInFlight(ids));
        this.#sayOutSoon();
      },
      log: deps.log,
      ...(deps.timer ? { timer: deps.timer } : {}),
    });
  }

  /** A feature's kinds of action, and how its views learn that one of its chains moved. */
  register<D>(feature: OutboxFeature<D>): void {
    this.#kinds.register(feature);
    this.deps.store.outbox.work.notWork(feature.actions.filter((kind) => kind.bookkeeping).map((kind) => kind.name));
  }

  /**
   * Queues an action of a registered kind inside the caller's transaction (call it in the transaction of
   * the change it stands for). Once that has committed (the same turn), the views are told and the runner
   * wakes: no caller remembers to. Answers the action's id.
   */
  enqueue<P>(kind: StoredKind<P>, payload: NoInfer<P>, at: QueuedAt): number {
    if (!this.#kinds.has(kind.name)) throw new Error(`The outbox action "${kind.name}" is not registered.`);
    const id = this.deps.store.outbox.add(kind, payload, {
      chain: chainKey(at.chain),
      actedAt: at.actedAt,
      now: Math.floor(this.deps.nowMs() / 1000),
      technician: at.technician,
    });
    if (at.stamp) (this.deps.clock ?? NO_CLOCK).remember(id, at.stamp);
    this.#wakeSoon();
    return id;
  }

  /**
   * A queued action not tried yet takes a new payload of its kind (a later save merged into it), inside
   * the caller's transaction; the views are told as after `enqueue`.
   */
  amend<P>(id: number, kind: StoredKind<P>, payload: NoInfer<P>, at: Pick<QueuedAt, 'actedAt' | 'stamp'>): void {
    this.deps.store.outbox.replacePayload(id, kind, payload, at.actedAt);
    if (at.stamp) (this.deps.clock ?? NO_CLOCK).remember(id, at.stamp);
    this.#wakeSoon();
  }

  /** Someone signed in (or came back): their work, and anyone's whose sign-in is kept, goes on. */
  resume(): void {
    this.changed();
    this.kick();
  }

  /** The current technician's work, and the others' apart (counts only). */
  summary(): OutboxSummary {
    const { outbox, technicians } = this.deps.store;
    const current = this.deps.current();
    const counts = outbox.counts(current);
    // Read only when nothing is out: while the replay sends, the chip says so and this is not asked.
    const next = current !== null && counts.inFlight === 0 && counts.pending > 0 ? outbox.nextDue([current]) : null;
    return {
      ...counts,
      nextTryAt: next !== null && next > this.deps.nowMs() ? next : null,
      others: this.deps.others(),
      heldAside: technicians.heldAside(),
      diskFull: this.#runner.storageHeld !== null,
      diskLow: this.deps.reserve?.gone ?? false,
      workRefused: this.deps.reserve?.refusing ?? false,
      diskFailed: this.deps.store.diskFailed,
      told: this.#order.next(),
    };
  }

  /**
   * What has not reached the site yet, whoever did it: actions to send (or sent, or refused) and conflicts to settle.
   */
  unsettled(): { unsent: number; conflicts: number } {
    return this.deps.store.outbox.unsettledAll();
  }

  /** Tells the renderer what waits now (after anything queued, sent, settled or forgotten). */
  changed(): void {
    this.#saidAt = performance.now();
    this.deps.events.emit('outbox', this.summary());
  }

  /** Tries just marked in flight are said to be out, unless an answer has told the views since (OUT_SAID_MS). */
  #sayOutSoon(): void {
    if (this.#outSaid) return;
    const markedAt = performance.now();
    this.#outSaid = setTimeout(() => {
      this.#outSaid = null;
      if (this.#saidAt < markedAt) this.changed();
    }, OUT_SAID_MS);
  }

  /** Replays what is due, in the background. */
  kick(): void {
    this.#runner.kick();
  }

  /** Back online: every waiting chain goes now, whatever its backoff said (not what the site asked to wait). */
  wake(): void {
    this.#runner.wake();
  }

  /** The outbox screen: the summary and the first LISTED actions of the current technician (outbox-repo listed). */
  view(): OutboxView {
    const current = this.deps.current();
    const rows = current === null ? [] : this.deps.store.outbox.listed(current, LISTED);
    const summary = this.summary();
    const unlisted = Math.max(0, summary.pending + summary.inFlight + summary.failed - rows.length);
    return { summary, actions: outboxActions(rows, this.#kinds), unlisted };
  }

  /**
   * The disk has room again (its reserve made again by its watch): a replay a full disk held goes on now, not at
   * the hold's end, and "Disk full" leaves the chip (it stood up to 30 s more with work waiting).
   */
  roomAgain(): void {
    this.#runner.releaseStorageHold();
    this.changed();
    this.kick();
  }

  /** "Send now": waiting work goes at once, whatever its backoff said (a hidden check keeps its time). */
  async flush(): Promise<OutboxSummary> {
    // A site thought away is asked first, by a check that leaves now: what goes then finds it answering.
    await this.deps.askAfresh?.();
    // Space freed on a full disk is not an event: the reserve is tried again here too, not only by its watch.
    if (this.deps.reserve?.again()) this.deps.log('There is room on the disk again: the reserve is made again.');
    try {
      // Their backoff set aside: a note that needs no flush of the disk (a power cut that takes it back leaves it).
      this.deps.store.replaceable(() => this.deps.store.outbox.sendNow());
      this.#runner.sendNowPressed();
    } catch (error) {
      if (!isStorageTrouble(error)) throw error;
      // Even "send now" cannot be written: the replay waits as it would for any write of its own.
      this.#runner.holdFor(error);
      throw storageFailure(error);
    }
    this.#runner.releaseStorageHold();
    await this.#runner.drain();
    this.#tellMoved();
    const held = this.#runner.storageHeld;
    if (held) throw storageFailure(held);
    return this.summary();
  }

  retry(actionId: number): OutboxView {
    if (!this.#own(actionId) || !this.deps.store.outbox.retry(actionId))
      throw new AppFailure('not_found', 'There is no failed action with that id.', { actionId });
    this.changed();
    this.kick();
    return this.view();
  }

  /**
   * Drops a failed action; what it would have sent stays in the session (and in a conflict record). Its
   * feature drops what depended on it (OutboxFeature.discarded).
   */
  discard(actionId: number): OutboxView {
    const { outbox } = this.deps.store;
    const row = outbox.get(actionId);
    if (!row || row.state !== 'failed' || !this.#own(actionId))
      throw new AppFailure('not_found', 'Only a failed action can be discarded.', { actionId });
    this.deps.store.transaction(() => {
      outbox.remove(actionId);
      this.#kinds.discarded(row);
    });
    this.#kinds.moved(chainOf(row.chain), this.deps.current());
    this.changed();
    this.kick();
    return this.view();
  }

  async close(): Promise<void> {
    await this.#runner.close();
    if (this.#outSaid) clearTimeout(this.#outSaid);
    this.#outSaid = null;
    // Told now: the database closes next.
    this.#tellMoved();
  }

  /**
   * A chain's action was sent, refused or set aside. The renderer is told at the end of the turn, once for
   * every chain moved in it (answers often arrive together): each view and the counts are read once. While
   * a replay goes on, answers arrive one turn after another: the views are then told at most every
   * TELL_EVERY_MS, of every chain moved meanwhile (reading the counts after each answer cost a replay of
   * 240 actions about a tenth of its main thread). The end of "Send now" tells them at once.
   */
  #moved(chain: string): void {
    this.#movedChains.add(chain);
    if (this.#telling) return;
    const wait = this.#toldAt + TELL_EVERY_MS - performance.now();
    if (wait <= 0) {
      const soon = setImmediate(() => this.#tellMoved());
      this.#telling = { cancel: () => clearImmediate(soon) };
    } else {
      const later = setTimeout(() => this.#tellMoved(), wait);
      this.#telling = { cancel: () => clearTimeout(later) };
    }
  }

  #tellMoved(): void {
    this.#telling?.cancel();
    this.#telling = null;
    if (this.#movedChains.size === 0) return;
    this.#toldAt = performance.now();
    const chains = [...this.#movedChains];
    this.#movedChains.clear();
    try {
      // Each feature tells its views; the renderer shows the current technician's work only.
      const current = this.deps.current();
      for (const chain of chains) this.#kinds.moved(chainOf(chain), current);
      this.changed();
    } catch (error) {
      // The work itself is in the database; the views read it again at their next change.
      this.deps.log(
        `The outbox could not tell the views what changed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** After the caller's transaction (this turn): the views are told, and the runner looks for what is due. */
  #wakeSoon(): void {
    if (this.#waking) return;
    this.#waking = true;
    queueMicrotask(() => {
      this.#waking = false;
      try {
        this.changed();
        this.kick();
      } catch (error) {
        // Closed meanwhile: what was queued is in the database, and the next start sends it.
        this.deps.log(`The outbox could not wake: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  }

  /** Only the technician who did an action may retry or discard it. */
  #own(actionId: number): boolean {
    const technician = this.deps.store.outbox.get(actionId)?.technician;
    return technician !== null && technician !== undefined && technician === this.deps.current();
  }
}
