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
   * Where the technician can change what the action sends (the step of an open session whose fields it
   * saves, numbered as the step list shows it), else null: the outbox view links a refused one there.
   */
  changeAt?: (deps: D, row: OutboxRow, payload: P, memo: Map<string, unknown>) => number | null;
  /**
   * The action goes with the time `at` (send-time.ts: re-dated by the site's clock, never before its
   * chain's last): what it changed on this computer follows (a session shows the times the site keeps).
   * Called for every action timed, moved or not (`at` equal to `row.actedAt`), after the new time is stored.
   */
  timed?: (deps: D, row: OutboxRow, payload: P, at: number, memory: ChainMemory) => void;
  /**
   * An action that may have landed goes again at another time than `triedAt`: the payload to send it
   * with, so the reconciliation still finds the earlier try (a start keeps the times it was tried with).
   */
  triedAgain?: (payload: P, triedAt: number) => P;
  /**
   * The feature's own bookkeeping, run in the background (a check on the site): nobody's work to wait for,
   * so the outbox neither counts nor shows it.
   */
  bookkeeping?: boolean;
}

/**
 * One kind of action as its feature declares it: a stored row is read (checked by the kind's schema) and
 * replayed by the kind, never by the queue. Its payload's type is the kind's, so `enqueue` takes no other.
 */
export interface ActionKind<P, D> extends StoredKind<P> {
  readonly name: string;
  readonly schema: z.ZodType<P>;
  readonly run: Handler<P, D>;
  readonly hooks: KindHooks<P, D>;
  /** A stored row of this kind read back, its payload checked: what a feature reads of its own rows. */
  readonly parse: (row: OutboxRow) => Parsed<P>;
}

/** A stored row's payload checked by its kind's schema, or why it does not pass. */
export type Parsed<P> = { ok: true; payload: P } | { ok: false; message: string };
export type Read<T> = { ok: true; action: T } | { ok: false; message: string };

/**
 * One stored action read back by its kind, its payload checked and held: what the queue asks of it. The
 * queue never sees a payload, so it holds no type it could get wrong.
 */
export interface ReadAction {
  replay(ctx: ReplayContext): Promise<ReplayOutcome>;
  /** In the outbox view (KindHooks.describe). */
  describe(memo: Map<string, unknown>): string;
  /** Where it can be changed (KindHooks.changeAt), or null. */
  changeAt(memo: Map<string, unknown>): number | null;
  /** Sent with the time `at` (KindHooks.timed). */
  timed(at: number, memory: ChainMemory): void;
  /** The payload to store when it goes again at another time after a try that may have landed, or null: as is. */
  triedAgain(): string | null;
}

/** An action kind of any payload, as a feature's list of kinds holds it. */
export interface AnyKind<D> {
  readonly name: string;
  /** Not counted nor shown as anyone's work (KindHooks.bookkeeping). */
  readonly bookkeeping: boolean;
  /** A stored row read with its feature's deps: the action, or why it cannot be read. */
  read(row: OutboxRow, deps: D): Read<ReadAction>;
}

/** A kind: its stored name, its payload's schema, its handler and hooks (Signal's JobQueue: parseData + run). */
export function defineAction<P, D>(
  name: string,
  schema: z.ZodType<P>,
  run: Handler<P, D>,
  hooks: KindHooks<P, D> = {},
): ActionKind<P, D> & AnyKind<D> {
  const parse = (row: OutboxRow): Parsed<P> => readPayload(name, schema, row);
  return {
    name,
    schema,
    run,
    hooks,
    parse,
    bookkeeping: hooks.bookkeeping === true,
    read: (row, deps) => {
      const read = parse(row);
      if (!read.ok) return read;
      const payload = read.payload;
      return {
        ok: true,
        action: {
          replay: (ctx) => run({ ...ctx, ...deps }, row, payload),
          describe: (memo) => hooks.describe?.(deps, row, payload, memo) ?? name,
          changeAt: (memo) => hooks.changeAt?.(deps, row, payload, memo) ?? null,
          timed: (at, memory) => hooks.timed?.(deps, row, payload, at, memory),
          triedAgain: () => (hooks.triedAgain ? JSON.stringify(hooks.triedAgain(payload, row.actedAt)) : null),
        },
      };
    },
  };
}

/**
 * A stored payload read back: a row that does not parse (a corrupt file, a hand edit, a bug) is reported
 * and set aside as failed by the runner, and the rest drains.
 */
function readPayload<P>(name: string, schema: z.ZodType<P>, row: OutboxRow): Parsed<P> {
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
