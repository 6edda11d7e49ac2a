import type { z } from 'zod';
import type { OutboxSummary } from '../../../contract.ts';
import type { Db } from '../open.ts';
import type { RowGuard } from '../row-guard.ts';
import { sql } from '../statements.ts';
import { TO_SETTLE } from './conflicts-repo.ts';
import { WORK, type WorkKinds } from './work-kinds.ts';

export interface OutboxRow {
  id: number;
  /** db/chains.ts names it. */
  chain: string;
  /** The stored name of its kind: one registered with the outbox, or one this version does not know (set aside). */
  kind: string;
  payload: string;
  actedAt: number;
  state: 'pending' | 'in_flight' | 'failed';
  attempts: number;
  nextAttemptAt: number;
  unknownOutcome: boolean;
  lastError: string | null;
  /** Who did it: the action is sent with this technician's own sign-in only (null: held aside, never sent). */
  technician: number | null;
  /** When it was queued, local clock, unix seconds. */
  createdAt: number;
  /** How many times in a row the site itself refused it (a 5xx), and since when (unix seconds): what makes it stuck. */
  refusals: number;
  refusedSince: number | null;
  /**
   * Since when (local ms) a send that may have landed may still be landing: the client gave up waiting (a
   * timeout, a gateway's 504). A start or an upload is looked for a while after it before it is sent again.
   */
  unknownSince: number | null;
}

/** A row as stored (every column: its checksum covers them all). */
interface OutboxRecord extends Record<string, unknown> {
  id: number;
  chain: string;
  kind: string;
  payload: string;
  acted_at: number;
  state: OutboxRow['state'];
  attempts: number;
  next_attempt_at: number;
  unknown_outcome: number;
  last_error: string | null;
  technician: number | null;
  created_at: number;
  refusals: number;
  refused_since: number | null;
  unknown_since: number | null;
}

const SELECT = 'SELECT * FROM outbox';

/**
 * The row `o` is its chain's first (through outbox_chain). Asked of the pending rows only, in id order,
 * so finding the next few actions reads a few rows, not every chain of the outbox (the GROUP BY it
 * replaces read them all at every answer of a replay: 30,000 actions in 5,000 chains, 2.4 ms a call against 0.04).
 */
const FIRST_OF_CHAIN = 'NOT EXISTS (SELECT 1 FROM outbox p WHERE p.chain = o.chain AND p.id < o.id)';

const toRow = (r: OutboxRecord): OutboxRow => ({
  id: r.id,
  chain: r.chain,
  kind: r.kind,
  payload: r.payload,
  actedAt: r.acted_at,
  state: r.state,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  unknownOutcome: Boolean(r.unknown_outcome),
  lastError: r.last_error,
  technician: r.technician,
  createdAt: r.created_at,
  refusals: r.refusals,
  refusedSince: r.refused_since,
  unknownSince: r.unknown_since,
});

/**
 * A kind of action as stored: its name, and the schema of its payload (outbox/action-kind.ts). Rows are
 * written through a kind only, so a payload of the wrong shape does not compile (and does not parse).
 */
export interface StoredKind<P> {
  readonly name: string;
  readonly schema: z.ZodType<P>;
}

/** What a retry also records (OutboxRepo.retryLater). */
export interface Retry {
  landingSince?: number;
  refusal?: { kind: 'refused'; nowSeconds: number } | { kind: 'unanswered' };
}

/**
 * The durable queue. Chains are replayed strictly in order and independently: only a chain's first
 * action may run, and a failed first action holds its own chain only. A chain whose first action is of a
 * technician whose sign-in is not kept waits, whoever else is signed in. Every row read is checked
 * against its checksum (row-guard.ts): a damaged action is put back from the work journal, or set aside.
 */
export class OutboxRepo {
  constructor(
    private readonly db: Db,
    private readonly guard: RowGuard,
    /** The kinds that are work: what is counted and shown (work-kinds.ts). */
    readonly work: WorkKinds,
  ) {}

  #checked(records: OutboxRecord[]): OutboxRow[] {
    return records.map((record) => toRow(this.guard.sound('outbox', record)));
  }

  /** Queues an action of `kind` in `chain` (a key of db/chains.ts), checked against the kind's schema. */
  add<P>(
    kind: StoredKind<P>,
    payload: NoInfer<P>,
    action: { chain: string; actedAt: number; now: number; technician: number },
  ): number {
    const stored = JSON.stringify(kind.schema.parse(payload));
    return Number(
      sql(
        this.db,
        'INSERT INTO outbox (chain, kind, payload, acted_at, created_at, technician) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(action.chain, kind.name, stored, action.actedAt, action.now, action.technician).lastInsertRowid,
    );
  }

  get(id: number): OutboxRow | undefined {
    const record = sql(this.db, `${SELECT} WHERE id = ?`).get(id) as OutboxRecord | undefined;
    return record ? this.#checked([record])[0] : undefined;
  }

  /** The last action of a chain, if it has not started: what a new step-data save may merge into. */
  tail(chain: string): OutboxRow | undefined {
    const last = sql(this.db, `${SELECT} WHERE chain = ? ORDER BY id DESC LIMIT 1`);
    const record = last.get(chain) as OutboxRecord | undefined;
    return record ? this.#checked([record])[0] : undefined;
  }

  /** Every action of a chain, oldest first. */
  inChain(chain: string): OutboxRow[] {
    return this.#checked(sql(this.db, `${SELECT} WHERE chain = ? ORDER BY id`).all(chain) as OutboxRecord[]);
  }

  /** Actions of a chain not on the site yet. */
  chainLength(chain: string): number {
    return (sql(this.db, 'SELECT count(*) AS n FROM outbox WHERE chain = ?').get(chain) as { n: number }).n;
  }

  /** The latest time of a chain's waiting actions: a new one is never timed before it. */
  lastActedAt(chain: string): number | null {
    return (sql(this.db, 'SELECT max(acted_at) AS at FROM outbox WHERE chain = ?').get(chain) as { at: number | null })
      .at;
  }

  /** The time an action is sent with, once clamped and re-dated (outbox/send-time.ts). */
  setActedAt(id: number, actedAt: number): void {
    sql(this.db, 'UPDATE outbox SET acted_at = ? WHERE id = ?').run(actedAt, id);
  }

  /** A queued action's payload changed (merged with a later save, rebased), as its kind checks it. */
  replacePayload<P>(id: number, kind: StoredKind<P>, payload: NoInfer<P>, actedAt: number): void {
    this.replaceStored(id, JSON.stringify(kind.schema.parse(payload)), actedAt);
  }

  /** The queue's own rewrite (outbox/send-time.ts): a payload its kind made from the stored one. */
  replaceStored(id: number, payload: string, actedAt: number): void {
    sql(this.db, 'UPDATE outbox SET payload = ?, acted_at = ? WHERE id = ?').run(payload, actedAt, id);
  }

  /**
   * The first action of every chain that is due now, waiting (not in flight, not failed), and of one of
   * these technicians, leaving out the chains `busy` names (those the runner is sending: only the rows it
   * can take are read and checked). A chain whose first action is in flight is being sent: never picked twice.
   * The technicians' work comes first, oldest first, then the bookkeeping (work-kinds.ts): a check due
   * since long ago never takes the last free lane from an action the technician waits for.
   */
  due(now: number, limit: number, technicians: readonly number[], busy: readonly string[] = []): OutboxRow[] {
    // Read per technician through outbox_technician, whose rows of one technician and state are in id
    // order: no sort of every waiting row, and the read stops once `limit` of the work are found (one
    // query ordering the work first sorted them all at every answer of a replay: 34 ms a call with
    // 30,000 actions in 5,000 chains, against 0.1). The bookkeeping met on the way fills what is left.
    const statement = sql(
      this.db,
      `${SELECT} o WHERE technician = @technician AND state = 'pending' AND next_attempt_at <= @now
           AND chain NOT IN (SELECT value FROM json_each(@busy)) AND ${FIRST_OF_CHAIN}
         ORDER BY id`,
    );
    const params = { now, busy: JSON.stringify(busy) };
    const work: OutboxRecord[] = [];
    const bookkeeping: OutboxRecord[] = [];
    for (const technician of new Set(technicians)) {
      let [ownWork, ownBookkeeping] = [0, 0];
      for (const row of statement.iterate({ ...params, technician }) as IterableIterator<OutboxRecord>) {
        if (this.work.isWork(row.kind)) {
          work.push(row);
          if (++ownWork === limit) break;
        } else if (ownBookkeeping++ < limit) bookkeeping.push(row);
      }
    }
    const byId = (a: OutboxRecord, b: OutboxRecord) => a.id - b.id;
    const rows = [...work.sort(byId), ...bookkeeping.sort(byId)].slice(0, limit);
    // One put back from the journal may be in flight, one set aside is failed: only what still waits goes.
    return this.#checked(rows).filter((row) => row.state === 'pending');
  }

  /** When the next waiting action of these technicians is due, if any. */
  nextDue(technicians: readonly number[]): number | null {
    const row = sql(
      this.db,
      `SELECT min(next_attempt_at) AS at FROM outbox o
         WHERE state = 'pending' AND technician IN (SELECT value FROM json_each(?))
           AND ${FIRST_OF_CHAIN}`,
    ).get(JSON.stringify(technicians)) as { at: number | null };
    return row.at;
  }

  /**
   * Before sending: from now on the outcome is unknown until an answer says
   * otherwise. Several at once, one commit (outbox/in-flight-marks.ts).
   */
  markAllInFlight(ids: readonly number[]): void {
    const mark = sql(
      this.db,
      "UPDATE outbox SET state = 'in_flight', attempts = attempts + 1, unknown_outcome = 1 WHERE id = ?",
    );
    this.db.transaction(() => {
      for (const id of ids) mark.run(id);
    })();
  }

  /** A start or an upload that may have landed is sent again now: it is no longer waited for. */
  sendingAgain(id: number): void {
    sql(this.db, 'UPDATE outbox SET unknown_since = NULL WHERE id = ?').run(id);
  }

  /**
   * Pending again, due at `at`. Not applied for sure (`outcomeUnknown` false), or maybe applied; maybe
   * still being applied by the site since `landingSince` (a timeout: the start or upload is then looked
   * for a while before it is sent again). `refusal`: the site itself refused it (one more in a row, since
   * the first), or no answer came (waiting for the network is not a refusal: the run ends).
   */
  retryLater(id: number, at: number, error: string, outcomeUnknown: boolean, more: Retry = {}): void {
    sql(
      this.db,
      `UPDATE outbox SET state = 'pending', next_attempt_at = @at, last_error = @error, unknown_outcome = @unknown,
         unknown_since = CASE WHEN @unknown = 0 THEN NULL ELSE coalesce(@landingSince, unknown_since) END,
         refusals = CASE @refusal WHEN 'refused' THEN refusals + 1 WHEN 'unanswered' THEN 0 ELSE refusals END,
         refused_since = CASE @refusal WHEN 'refused' THEN coalesce(refused_since, @now)
           WHEN 'unanswered' THEN NULL ELSE refused_since END
       WHERE id = @id`,
    ).run({
      id,
      at,
      error,
      unknown: outcomeUnknown ? 1 : 0,
      landingSince: more.landingSince ?? null,
      refusal: more.refusal?.kind ?? null,
      now: more.refusal?.kind === 'refused' ? more.refusal.nowSeconds : null,
    });
  }

  /**
   * Refused for good (shown, with retry and discard); whether an earlier attempt may have landed is kept for a retry.
   */
  fail(id: number, error: string): void {
    sql(this.db, "UPDATE outbox SET state = 'failed', next_attempt_at = 0, last_error = ? WHERE id = ?").run(error, id);
  }

  /**
   * Stuck: the site kept failing (5xx) past the bound, this refusal counted. Shown like a failed action;
   * `next_attempt_at` -1 tells it apart.
   */
  stick(id: number, error: string, nowSeconds: number): void {
    sql(
      this.db,
      `UPDATE outbox SET state = 'failed', next_attempt_at = -1, last_error = ?, refusals = refusals + 1,
         refused_since = coalesce(refused_since, ?) WHERE id = ?`,
    ).run(error, nowSeconds, id);
  }

  /** The actions shown as stuck, with their run of refusals. */
  stuck(): { id: number; refusals: number; refusedSince: number | null }[] {
    return sql(
      this.db,
      "SELECT id, refusals, refused_since AS refusedSince FROM outbox WHERE state = 'failed' AND next_attempt_at = -1",
    ).all() as { id: number; refusals: number; refusedSince: number | null }[];
  }

  /**
   * "Send now": every waiting action of the technicians' work is due at once, whatever its backoff said.
   * A feature's hidden check (bookkeeping: a look for a second copy at set times after a slow answer) keeps
   * its time: due early it finds nothing new, and it would take a place beside the work pressed for.
   */
  sendNow(): void {
    sql(this.db, `UPDATE outbox SET next_attempt_at = 0 WHERE state = 'pending' AND ${WORK}`).run(this.work.params);
  }

  /** One waiting action due now (one whose request was out when "Send now" was pressed). */
  dueNow(id: number): void {
    sql(this.db, "UPDATE outbox SET next_attempt_at = 0 WHERE id = ? AND state = 'pending'").run(id);
  }

  /**
   * Back online: every waiting action of the work is due now, but those the site itself asked to wait
   * (Retry-After); a hidden check keeps its time, as with "Send now".
   */
  wake(nowMs: number, except: readonly number[]): number {
    return sql(
      this.db,
      'UPDATE outbox SET next_attempt_at = 0 ' +
        `WHERE state = 'pending' AND next_attempt_at > @nowMs AND id NOT IN (SELECT value FROM json_each(@except))
           AND ${WORK}`,
    ).run({ nowMs, except: JSON.stringify(except), ...this.work.params }).changes;
  }

  retry(id: number): boolean {
    return (
      sql(this.db, "UPDATE outbox SET state = 'pending', next_attempt_at = 0 WHERE id = ? AND state = 'failed'").run(id)
        .changes > 0
    );
  }

  remove(id: number): void {
    sql(this.db, 'DELETE FROM outbox WHERE id = ?').run(id);
  }

  /** After a crash, what was in flight may or may not have landed. */
  recoverInFlight(): number {
    return sql(this.db, "UPDATE outbox SET state = 'pending', unknown_outcome = 1 WHERE state = 'in_flight'").run()
      .changes;
  }

  /**
   * What the outbox screen lists of a technician's work, oldest first: the first `limit` actions, and every
   * failed one after them (each waits for the technician: Retry or Discard). Read through outbox_technician
   * a state at a time in id order, each read stopping at `limit`: a queue of a week away from the network
   * is neither read whole nor sent whole to the screen each time a replay tells it (every 200 ms).
   */
  listed(technician: number, limit: number): OutboxRow[] {
    const statement = sql(
      this.db,
      `${SELECT} WHERE technician = @technician AND state = @state AND ${WORK} ORDER BY id LIMIT @limit`,
    );
    const of = (state: OutboxRow['state'], most: number) =>
      statement.all({ technician, state, limit: most, ...this.work.params }) as OutboxRecord[];
    // LIMIT -1: no limit.
    const failed = of('failed', -1);
    const first = [...of('pending', limit), ...of('in_flight', limit), ...failed]
      .sort((a, b) => a.id - b.id)
      .slice(0, limit);
    const last = first.at(-1)?.id ?? Number.POSITIVE_INFINITY;
    return this.#checked([...first, ...failed.filter((row) => row.id > last)]);
  }

  /** Everything one technician has waiting, oldest first, as raw rows (the view parses payloads). */
  all(technician: number): OutboxRow[] {
    const rows = sql(this.db, `${SELECT} WHERE technician = @technician AND ${WORK} ORDER BY id`).all({
      technician,
      ...this.work.params,
    });
    return this.#checked(rows as OutboxRecord[]);
  }

  /** One technician's actions by state and their open conflicts (nobody's: zeros). */
  counts(
    technician: number | null,
  ): Omit<
    OutboxSummary,
    'others' | 'heldAside' | 'diskFull' | 'diskLow' | 'workRefused' | 'diskFailed' | 'told' | 'nextTryAt'
  > {
    return sql(
      this.db,
      `SELECT count(*) FILTER (WHERE state = 'pending') AS pending,
           count(*) FILTER (WHERE state = 'pending' AND last_error IS NOT NULL) AS retrying,
           count(*) FILTER (WHERE state = 'in_flight') AS inFlight,
           count(*) FILTER (WHERE state = 'failed') AS failed,
           (SELECT count(*) FROM conflicts WHERE ${TO_SETTLE} AND technician = @technician) AS conflicts
         FROM outbox WHERE technician = @technician AND ${WORK}`,
    ).get({ technician, ...this.work.params }) as {
      pending: number;
      retrying: number;
      inFlight: number;
      failed: number;
      conflicts: number;
    };
  }

  /** Everything not on the site yet, whoever did it: a switch of site waits for all of it. */
  unsettledAll(): { unsent: number; conflicts: number } {
    const query = `SELECT count(*) AS unsent, (SELECT count(*) FROM conflicts WHERE ${TO_SETTLE}) AS conflicts
      FROM outbox WHERE ${WORK}`;
    return sql(this.db, query).get(this.work.params) as {
      unsent: number;
      conflicts: number;
    };
  }
}
