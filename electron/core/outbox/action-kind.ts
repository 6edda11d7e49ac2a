import type { z } from 'zod';
import type { OutboxRow, StoredKind } from '../db/repos/outbox-repo.ts';
import type { ReplayContext, ReplayOutcome } from './replay-context.ts';

/** What a kind's replay works with: the outbox's context and what its feature registered with it. */
export type KindContext<D> = ReplayContext & D;

/** Sends one stored action of a kind (its payload checked) and says how it went (replay-context.ts). */
export type Handler<P, D> = (ctx: KindContext<D>, row: OutboxRow, payload: P) => Promise<ReplayOutcome>;

/**
 * Per chain, what a kind's send-time hook remembers of the actions of its chain already timed in this
 * replay (a pause's move, which the resume after it carries over).
 */
export type ChainMemory = Map<string, number>;

/** What a kind may tell the queue beyond how to replay it. Each is optional. */
export interface KindHooks<P, D> {
  /**
   * How the outbox view names one action: "Pause", "Save step 3 (2 fields)". Default: the kind's name.
   * `memo` lives for one view: what several rows look up (a guide's step numbers) is read once.
   */
  describe?: (deps: D, row: OutboxRow, payload: P, memo: Map<string, unknown>) => string;
  /**
   * The action goes with the time `at` (send-time.ts: re-dated by the site's clock, never before its
   * chain's last): what it changed on this computer follows (a session shows the times the site keeps).
   * Called for every action timed, moved or not (`at` equal to `row.actedAt`), after the new time is stored.
   */
  timed?: (deps: D, row: OutboxRow, payload: P, at: number, memory: ChainMemory) => void;
  /**
   * An action that may have landed goes again at another time: the payload to send it with, so the
   * reconciliation still finds an earlier try (a start keeps the times it was tried with).
   */
  triedAgain?: (payload: P, triedAt: number) => P;
}

/**
 * One kind of action, as the queue sees it: a stored row is read (checked by the kind's schema) and
 * replayed by the kind, never by the queue. Its payload's type is the kind's, so `enqueue` takes no other.
 */
export interface ActionKind<P, D> extends StoredKind<P> {
  readonly name: string;
  readonly schema: z.ZodType<P>;
  readonly run: Handler<P, D>;
  readonly hooks: KindHooks<P, D>;
  /** A stored row of this kind read back, its payload checked: what a feature reads of its own rows. */
  readonly parse: (row: OutboxRow) => Read<P>;
}

type Read<P> = { ok: true; payload: P } | { ok: false; message: string };

/** An action kind of any payload, as a feature's list of kinds holds it (the payload is checked at reading). */
export interface AnyKind<D> {
  readonly name: string;
  /** The stored payload read and checked, or why it cannot be. */
  read(row: OutboxRow): Read<unknown>;
  replay(ctx: KindContext<D>, row: OutboxRow, payload: unknown): Promise<ReplayOutcome>;
  describe(deps: D, row: OutboxRow, payload: unknown, memo: Map<string, unknown>): string;
  timed(deps: D, row: OutboxRow, payload: unknown, at: number, memory: ChainMemory): void;
  triedAgain(payload: unknown, triedAt: number): unknown;
}

/** A kind: its stored name, its payload's schema, its handler and hooks (Signal's JobQueue: parseData + run). */
export function defineAction<P, D>(
  name: string,
  schema: z.ZodType<P>,
  run: Handler<P, D>,
  hooks: KindHooks<P, D> = {},
): ActionKind<P, D> & AnyKind<D> {
  const parse = (row: OutboxRow): Read<P> => readPayload(name, schema, row);
  return {
    name,
    schema,
    run,
    hooks,
    parse,
    read: parse,
    replay: (ctx, row, payload) => run(ctx, row, payload as P),
    describe: (deps, row, payload, memo) => hooks.describe?.(deps, row, payload as P, memo) ?? name,
    timed: (deps, row, payload, at, memory) => hooks.timed?.(deps, row, payload as P, at, memory),
    triedAgain: (payload, triedAt) => (hooks.triedAgain ? hooks.triedAgain(payload as P, triedAt) : payload),
  };
}

/**
 * A stored payload read back: a row that does not parse (a corrupt file, a hand edit, a bug) is reported
 * and set aside as failed by the runner, and the rest drains.
 */
function readPayload<P>(name: string, schema: z.ZodType<P>, row: OutboxRow): Read<P> {
  let json: unknown;
  try {
    json = JSON.parse(row.payload);
  } catch {
    return { ok: false, message: `the stored ${name} action is not JSON` };
  }
  const checked = schema.safeParse(json);
  if (!checked.success)
    return {
      ok: false,
      message: `the stored ${name} action is damaged: ${checked.error.issues[0]?.message ?? 'invalid'}`,
    };
  return { ok: true, payload: checked.data };
}
