import { z } from 'zod';
import type { OutboxSummary, OutboxView } from '../../contract.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { Store } from '../db/store.ts';
import type { EventHub } from '../events.ts';
import { AppFailure } from '../result.ts';
import { outboxActions } from './outbox-view.ts';
import { OutboxRunner } from './runner.ts';

const PAUSE_KEY = 'outbox.pausedFor';

export interface OutboxDeps {
  store: Store;
  events: EventHub;
  /** The signed-in transport, or null when nobody is signed in. */
  transport: () => ApiTransport | null;
  attachmentsDir: string;
  nowMs: () => number;
  random?: () => number;
  log: (message: string) => void;
}

/**
 * The durable queue of what technicians did offline, replayed to the site by its runner: what waits,
 * "send now", retry and discard of failed actions, and the pause a refused sign-in puts on all of it.
 * Features queue actions in their own transactions (OutboxRepo.add), then call `changed` and `kick`.
 */
export class Outbox {
  readonly #runner: OutboxRunner;

  constructor(private readonly deps: OutboxDeps) {
    const { store, events } = deps;
    const now = (): number => Math.floor(deps.nowMs() / 1000);
    this.#runner = new OutboxRunner({
      context: {
        transaction: (fn) => store.transaction(fn),
        sessions: store.sessions,
        outbox: store.outbox,
        conflicts: store.conflicts,
        guides: store.guides,
        quizzes: store.quizzes,
        attachmentsDir: deps.attachmentsDir,
        now,
        conflict: (conflict) => events.emit('conflict', store.conflicts.add(conflict, now())),
      },
      transport: deps.transport,
      pausedFor: () => this.pausedFor(),
      pause: (reason) => {
        store.settings.set(PAUSE_KEY, reason);
        this.changed();
      },
      nowMs: deps.nowMs,
      random: deps.random ?? Math.random,
      onChange: (chain) => {
        if (chain.startsWith('quiz:')) {
          const attempt = store.quizzes.attempt(chain.slice('quiz:'.length));
          if (attempt) events.emit('quizAttempt', attempt);
        } else {
          const view = store.sessions.view(chain);
          if (view) events.emit('session', view);
        }
        this.changed();
      },
      log: deps.log,
    });
  }

  pausedFor(): OutboxSummary['pausedFor'] {
    return this.deps.store.settings.get(PAUSE_KEY, z.literal('unauthorized')) ?? null;
  }

  /** Signed in again: the outbox goes on. */
  resume(): void {
    this.deps.store.settings.delete(PAUSE_KEY);
    this.changed();
    this.kick();
  }

  summary(): OutboxSummary {
    return this.deps.store.outbox.summary(this.pausedFor());
  }

  /** What has not reached the site yet: actions to send (or sent, or refused) and conflicts to settle. */
  unsettled(): { unsent: number; conflicts: number } {
    const summary = this.summary();
    return { unsent: summary.pending + summary.inFlight + summary.failed, conflicts: summary.conflicts };
  }

  /** Tells the renderer what waits now (after anything queued, sent, settled or forgotten). */
  changed(): void {
    this.deps.events.emit('outbox', this.summary());
  }

  /** Replays what is due, in the background. */
  kick(): void {
    this.#runner.kick();
  }

  view(): OutboxView {
    return { summary: this.summary(), actions: outboxActions(this.deps.store) };
  }

  /** "Send now": waiting actions go at once, whatever their backoff said. */
  async flush(): Promise<OutboxSummary> {
    this.deps.store.outbox.sendNow();
    await this.#runner.drain();
    return this.summary();
  }

  retry(actionId: number): OutboxView {
    if (!this.deps.store.outbox.retry(actionId)) throw new AppFailure('not_found', 'There is no failed action with that id.', { actionId });
    this.changed();
    this.kick();
    return this.view();
  }

  /** Drops a failed action; what it would have sent stays in the session (and in a conflict record). */
  discard(actionId: number): OutboxView {
    const { outbox, sessions } = this.deps.store;
    const row = outbox.get(actionId);
    if (!row || row.state !== 'failed') throw new AppFailure('not_found', 'Only a failed action can be discarded.', { actionId });
    outbox.remove(actionId);
    const view = sessions.view(row.chain);
    if (view) this.deps.events.emit('session', view);
    this.changed();
    this.kick();
    return this.view();
  }

  close(): Promise<void> {
    return this.#runner.close();
  }
}
