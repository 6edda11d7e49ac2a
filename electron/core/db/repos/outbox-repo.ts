import type { OutboxActionKind, OutboxSummary } from '../../../contract.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

export interface OutboxRow {
  id: number;
  chain: string;
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
  /** When the send whose outcome is unknown went (local ms): a start or upload is looked for a while after it. */
  unknownSince: number | null;
}

const SELECT = `SELECT id, chain, kind, payload, acted_at AS actedAt, state, attempts, next_attempt_at AS nextAttemptAt,
  unknown_outcome AS unknownOutcome, last_error AS lastError, technician, created_at AS createdAt, refusals,
  refused_since AS refusedSince, unknown_since AS unknownSince FROM outbox`;

/**
 * The row `o` is its chain's first (through outbox_chain). Asked of the pending rows only, in id order,
 * so finding the next few actions reads a few rows, not every chain of the outbox (the GROUP BY it
 * replaces read them all at every answer of a replay: 30,000 actions in 5,000 chains, 2.4 ms a call against 0.04).
 */
const FIRST_OF_CHAIN = 'NOT EXISTS (SELECT 1 FROM outbox p WHERE p.chain = o.chain AND p.id < o.id)';

const fix = (row: OutboxRow & { unknownOutcome: number | boolean }): OutboxRow => ({ ...row, unknownOutcome: Boolean(row.unknownOutcome) });

/**
 * The durable queue. Chains are replayed strictly in order and independently: only a chain's first
 * action may run, and a failed first action holds its own chain only. A chain whose first action is of a
 * technician whose sign-in is not kept waits, whoever else is signed in.
 */
export class OutboxRepo {
  constructor(private readonly db: Db) {}

  add(action: { chain: string; kind: OutboxActionKind | string; payload: unknown; actedAt: number; now: number; technician: number }): number {
    return Number(
      sql(this.db, 'INSERT INTO outbox (chain, kind, payload, acted_at, created_at, technician) VALUES (?, ?, ?, ?, ?, ?)')
        .run(action.chain, action.kind, JSON.stringify(action.payload), action.actedAt, action.now, action.technician).lastInsertRowid,
    );
  }

  get(id: number): OutboxRow | undefined {
    const row = sql(this.db, `${SELECT} WHERE id = ?`).get(id) as (OutboxRow & { unknownOutcome: number }) | undefined;
    return row ? fix(row) : undefined;
  }

  /** The last action of a chain, if it has not started: what a new step-data save may merge into. */
  tail(chain: string): OutboxRow | undefined {
    const row = sql(this.db, `${SELECT} WHERE chain = ? ORDER BY id DESC LIMIT 1`).get(chain) as (OutboxRow & { unknownOutcome: number }) | undefined;
    return row ? fix(row) : undefined;
  }

  /** Actions of a chain not on the site yet. */
  chainLength(chain: string): number {
    return (sql(this.db, 'SELECT count(*) AS n FROM outbox WHERE chain = ?').get(chain) as { n: number }).n;
  }

  /** The latest time of a chain's waiting actions: a new one is never timed before it. */
  lastActedAt(chain: string): number | null {
    return (sql(this.db, 'SELECT max(acted_at) AS at FROM outbox WHERE chain = ?').get(chain) as { at: number | null }).at;
  }

  /** The time an action is sent with, once clamped and re-dated (outbox/send-time.ts). */
  setActedAt(id: number, actedAt: number): void {
    sql(this.db, 'UPDATE outbox SET acted_at = ? WHERE id = ?').run(actedAt, id);
  }

  replacePayload(id: number, payload: unknown, actedAt: number): void {
    sql(this.db, 'UPDATE outbox SET payload = ?, acted_at = ? WHERE id = ?').run(JSON.stringify(payload), actedAt, id);
  }

  /**
   * The first action of every chain that is due now, waiting (not in flight, not failed), and of one of
   * these technicians. A chain whose first action is in flight is being sent: never picked twice.
   */
  due(now: number, limit: number, technicians: readonly number[]): OutboxRow[] {
    const rows = sql(this.db, 
        `${SELECT} o WHERE state = 'pending' AND next_attempt_at <= ? AND technician IN (SELECT value FROM json_each(?))
           AND ${FIRST_OF_CHAIN} ORDER BY id LIMIT ?`,
      )
      .all(now, JSON.stringify(technicians), limit) as (OutboxRow & { unknownOutcome: number })[];
    return rows.map(fix);
  }

  /** When the next waiting action of these technicians is due, if any. */
  nextDue(technicians: readonly number[]): number | null {
    const row = sql(this.db, 
        `SELECT min(next_attempt_at) AS at FROM outbox o WHERE state = 'pending' AND technician IN (SELECT value FROM json_each(?))
           AND ${FIRST_OF_CHAIN}`,
      )
      .get(JSON.stringify(technicians)) as { at: number | null };
    return row.at;
  }

  /**
   * Before sending: from now on the outcome is unknown until an answer says otherwise. Several at once, one
   * commit (outbox/in-flight-marks.ts). An action whose outcome was known goes now (`nowMs`): the time a
   * start or an upload with no answer is looked for after.
   */
  markAllInFlight(ids: readonly number[], nowMs: number): void {
    const mark = sql(
      this.db,
      `UPDATE outbox SET state = 'in_flight', attempts = attempts + 1, unknown_outcome = 1,
         unknown_since = CASE WHEN unknown_outcome = 0 THEN ? ELSE unknown_since END WHERE id = ?`,
    );
    this.db.transaction(() => {
      for (const id of ids) mark.run(nowMs, id);
    })();
  }

  /** A start or an upload that may have landed is sent again now: what is looked for after this send. */
  sendingAgain(id: number, nowMs: number): void {
    sql(this.db, 'UPDATE outbox SET unknown_since = ? WHERE id = ?').run(nowMs, id);
  }

  /** The site itself refused it (a 5xx): one more refusal in a row, counted since the first. */
  refused(id: number, at: number, error: string, outcomeUnknown: boolean, nowSeconds: number): void {
    sql(
      this.db,
      `UPDATE outbox SET state = 'pending', next_attempt_at = ?, last_error = ?, unknown_outcome = ?,
         refusals = refusals + 1, refused_since = coalesce(refused_since, ?) WHERE id = ?`,
    ).run(at, error, outcomeUnknown ? 1 : 0, nowSeconds, id);
  }

  /** No answer: the site could not be reached. Waiting for the network ends a run of refusals: it is not one. */
  unanswered(id: number, at: number, error: string, outcomeUnknown: boolean): void {
    sql(
      this.db,
      `UPDATE outbox SET state = 'pending', next_attempt_at = ?, last_error = ?, unknown_outcome = ?,
         refusals = 0, refused_since = NULL WHERE id = ?`,
    ).run(at, error, outcomeUnknown ? 1 : 0, id);
  }

  /** A definite "not applied" (an error answer): the next attempt need not reconcile. */
  retryLater(id: number, at: number, error: string, outcomeUnknown: boolean): void {
    sql(this.db, "UPDATE outbox SET state = 'pending', next_attempt_at = ?, last_error = ?, unknown_outcome = ? WHERE id = ?")
      .run(at, error, outcomeUnknown ? 1 : 0, id);
  }

  /** Refused for good (shown, with retry and discard); whether an earlier attempt may have landed is kept for a retry. */
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

  /** "Send now": every waiting action is due at once, whatever its backoff said. */
  sendNow(): void {
    sql(this.db, "UPDATE outbox SET next_attempt_at = 0 WHERE state = 'pending'").run();
  }

  /** Back online: every waiting action is due now, but those the site itself asked to wait (Retry-After). */
  wake(nowMs: number, except: readonly number[]): number {
    return sql(this.db, "UPDATE outbox SET next_attempt_at = 0 WHERE state = 'pending' AND next_attempt_at > ? AND id NOT IN (SELECT value FROM json_each(?))")
      .run(nowMs, JSON.stringify(except)).changes;
  }

  retry(id: number): boolean {
    return sql(this.db, "UPDATE outbox SET state = 'pending', next_attempt_at = 0 WHERE id = ? AND state = 'failed'").run(id).changes > 0;
  }

  remove(id: number): void {
    sql(this.db, 'DELETE FROM outbox WHERE id = ?').run(id);
  }

  /** After a crash, what was in flight may or may not have landed (and may still be landing: looked for from now). */
  recoverInFlight(nowMs: number): number {
    return sql(
      this.db,
      "UPDATE outbox SET state = 'pending', unknown_outcome = 1, unknown_since = ? WHERE state = 'in_flight'",
    ).run(nowMs).changes;
  }

  /** Everything one technician has waiting, oldest first, as raw rows (the view parses payloads). */
  all(technician: number): OutboxRow[] {
    return (sql(this.db, `${SELECT} WHERE technician = ? ORDER BY id`).all(technician) as (OutboxRow & { unknownOutcome: number })[]).map(fix);
  }

  /** One technician's actions by state and their open conflicts (nobody's: zeros). */
  counts(technician: number | null): Omit<OutboxSummary, 'others' | 'heldAside'> {
    return sql(this.db, 
        `SELECT count(*) FILTER (WHERE state = 'pending') AS pending, count(*) FILTER (WHERE state = 'in_flight') AS inFlight,
           count(*) FILTER (WHERE state = 'failed') AS failed,
           (SELECT count(*) FROM conflicts WHERE settled IS NULL AND technician = @technician) AS conflicts FROM outbox WHERE technician = @technician`,
      )
      .get({ technician }) as { pending: number; inFlight: number; failed: number; conflicts: number };
  }

  /** Everything not on the site yet, whoever did it: a switch of site waits for all of it. */
  unsettledAll(): { unsent: number; conflicts: number } {
    return sql(this.db, 'SELECT count(*) AS unsent, (SELECT count(*) FROM conflicts WHERE settled IS NULL) AS conflicts FROM outbox').get() as {
      unsent: number;
      conflicts: number;
    };
  }
}
