import type { ApiTransport } from '../api/transport.ts';
import type { ChainRef } from '../db/chains.ts';
import type { OutboxRepo, StoredKind } from '../db/repos/outbox-repo.ts';
import type { Stamp } from '../connection/server-clock.ts';

/** Where and when an action is queued, and who did it. */
export interface QueuedAt {
  chain: ChainRef;
  /** When the technician acted (unix seconds, on the site's clock as known). */
  actedAt: number;
  /** Who did it: it is sent with their own sign-in only. */
  technician: number;
  /** What re-dates `actedAt` once the site has answered (connection/server-clock.ts). */
  stamp?: Stamp;
}

/**
 * Queues an action of a registered kind, with a payload of that kind's type, inside the caller's
 * transaction (the change it stands for commits with it); the runner wakes by itself once it has. Answers
 * the action's id.
 */
export type Enqueue = <P>(kind: StoredKind<P>, payload: NoInfer<P>, at: QueuedAt) => number;

/** What the outbox gives every replay, whatever its kind. */
export interface ReplayContext {
  /** Runs `fn` in one transaction (Store.replaceable: what the site answered, it can give again). */
  transaction: <T>(fn: () => T) => T;
  /** The queue's rows: remove the action once done, in the transaction of its effect. */
  outbox: OutboxRepo;
  enqueue: Enqueue;
  /** The transport of the technician who did the action: their own token, never another's. */
  transport: ApiTransport;
  /** Who did the action (technicians.ts). */
  technician: number;
  /** The local clock, unix seconds. */
  now: () => number;
  /** The local clock in milliseconds: what the outbox's waits are timed by. */
  nowMs: () => number;
}

/**
 * How a replay ended:
 * - `done`: the handler removed the action (in the same transaction as its effect);
 * - `again`: the handler rebased the action on the site's newer revision: send it again now;
 * - `failed`: the site refused it for good (shown, with retry and discard);
 * - `wait`: the handler looked and must look again later (a start that may still be landing).
 * Errors thrown (ApiError) are sorted by the runner: retry later, pause for sign-in, or fail.
 */
export type ReplayOutcome =
  | { type: 'done' }
  | { type: 'again' }
  | { type: 'failed'; message: string }
  /** Not sent, nothing learned against it: the handler looks again at `atMs` (local ms), saying why meanwhile. */
  | { type: 'wait'; atMs: number; message: string };

/**
 * An action whose record (a session, a file, an attempt) this computer cannot find: nothing deletes
 * those while an action needs them, so it is damage, and the action is never taken as done (nor sent):
 * it is shown, and the next start puts back from the work journal what it can (db/journal-restore.ts).
 */
export function missingHere(what: string): ReplayOutcome {
  return {
    type: 'failed',
    message:
      `Its ${what} could not be found on this computer, so it was not sent. ` +
      'Restart Fieldguide: it checks its database and puts back what it can.',
  };
}
