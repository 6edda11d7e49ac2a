import type { FailedGuide } from '../../../contract.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

/**
 * Guides whose listing changed but whose content is not stored yet. Durable, so a sync resumes. A guide
 * that failed waits until `next_attempt_at`; NULL there after a failure means it is not tried again until
 * Retry, or until the site lists a new revision of it (which starts its count afresh).
 */
export class SyncQueueRepo {
  constructor(private readonly db: Db) {}

  enqueue(guideid: number, revisionid: number): void {
    sql(
      this.db,
      `INSERT INTO sync_queue (guideid, revisionid) VALUES (?, ?)
         ON CONFLICT(guideid) DO UPDATE SET revisionid = excluded.revisionid,
           attempts = CASE WHEN sync_queue.revisionid = excluded.revisionid THEN attempts ELSE 0 END,
           failed_at = CASE WHEN sync_queue.revisionid = excluded.revisionid THEN failed_at ELSE NULL END,
           next_attempt_at = CASE WHEN sync_queue.revisionid = excluded.revisionid THEN next_attempt_at ELSE NULL END,
           last_error = CASE WHEN sync_queue.revisionid = excluded.revisionid THEN last_error ELSE NULL END`,
    ).run(guideid, revisionid);
  }

  /** Queued guides after `afterId` that are due at `now` (never failed, or their wait is over), a page at a time. */
  page(
    afterId: number,
    limit: number,
    now = Number.MAX_SAFE_INTEGER,
  ): { guideid: number; revisionid: number; attempts: number }[] {
    return sql(
      this.db,
      `SELECT guideid, revisionid, attempts FROM sync_queue
       WHERE guideid > ? AND (failed_at IS NULL OR next_attempt_at <= ?) ORDER BY guideid LIMIT ?`,
    ).all(afterId, now, limit) as { guideid: number; revisionid: number; attempts: number }[];
  }

  /** Which of `guideids` are queued and due at `now`, in guide order. */
  dueAmong(guideids: readonly number[], now: number): number[] {
    const due = sql(
      this.db,
      `SELECT guideid FROM sync_queue WHERE guideid IN (SELECT value FROM json_each(?))
         AND (failed_at IS NULL OR next_attempt_at <= ?) ORDER BY guideid`,
    );
    return (due.all(JSON.stringify(guideids), now) as { guideid: number }[]).map((row) => row.guideid);
  }

  size(): number {
    return (sql(this.db, 'SELECT count(*) AS n FROM sync_queue').get() as { n: number }).n;
  }

  /** Queued guides due at `now`. */
  due(now: number): number {
    return (
      sql(this.db, 'SELECT count(*) AS n FROM sync_queue WHERE failed_at IS NULL OR next_attempt_at <= ?').get(now) as {
        n: number;
      }
    ).n;
  }

  /** Whether a guide that failed is due again at `now` (a first failure, or no answer from the site). */
  failedDue(now: number): boolean {
    const due = sql(this.db, 'SELECT 1 FROM sync_queue WHERE failed_at IS NOT NULL AND next_attempt_at <= ? LIMIT 1');
    return due.get(now) !== undefined;
  }

  /** Queued guides never tried (the cursor may move past the others: they stay queued). */
  untried(): number {
    return (sql(this.db, 'SELECT count(*) AS n FROM sync_queue WHERE failed_at IS NULL').get() as { n: number }).n;
  }

  done(guideid: number): void {
    sql(this.db, 'DELETE FROM sync_queue WHERE guideid = ?').run(guideid);
  }

  /**
   * Records a failure; `nextAttemptAt(attempts)` says when it is due again (null: not until Retry). One
   * that is not `counted` (no answer at all: the network's, not the guide's) leaves the count and is due now.
   */
  failed(
    guideid: number,
    error: string,
    resource: string | null,
    now: number,
    nextAttemptAt: (attempts: number) => number | null,
    counted = true,
  ): void {
    const row = sql(this.db, 'SELECT attempts FROM sync_queue WHERE guideid = ?').get(guideid) as
      { attempts: number } | undefined;
    if (!row) return;
    if (!counted) {
      sql(
        this.db,
        'UPDATE sync_queue SET last_error = ?, resource = ?, failed_at = ?, next_attempt_at = ? WHERE guideid = ?',
      ).run(error, resource, now, now, guideid);
      return;
    }
    const attempts = row.attempts + 1;
    sql(
      this.db,
      'UPDATE sync_queue SET attempts = ?, last_error = ?, ' +
        'resource = ?, failed_at = ?, next_attempt_at = ? WHERE guideid = ?',
    ).run(attempts, error, resource, now, nextAttemptAt(attempts), guideid);
  }

  /** Failed guides due at once, their count started afresh (Retry); all of them without `guideids`. */
  retry(guideids: readonly number[] | undefined, now: number): number {
    const retry = sql(
      this.db,
      'UPDATE sync_queue SET attempts = 0, next_attempt_at = ? ' +
        'WHERE failed_at IS NOT NULL AND (? IS NULL OR guideid = ?)',
    );
    if (!guideids) return retry.run(now, null, null).changes;
    return this.db.transaction(() => guideids.reduce((n, id) => n + retry.run(now, id, id).changes, 0))();
  }

  /** Failed guides with their titles, most recent failure first. */
  failures(limit = 200): FailedGuide[] {
    const rows = sql(
      this.db,
      `SELECT q.guideid, coalesce(g.title, 'Guide ' || q.guideid) AS title, q.last_error, q.resource, q.attempts,
         q.failed_at, q.next_attempt_at
       FROM sync_queue q LEFT JOIN guides g ON g.guideid = q.guideid
       WHERE q.failed_at IS NOT NULL ORDER BY q.failed_at DESC, q.guideid LIMIT ?`,
    ).all(limit) as {
      guideid: number;
      title: string;
      last_error: string | null;
      resource: string | null;
      attempts: number;
      failed_at: number;
      next_attempt_at: number | null;
    }[];
    return rows.map((r) => ({
      guideid: r.guideid,
      title: r.title,
      message: r.last_error ?? 'It could not be stored.',
      resource: r.resource,
      attempts: r.attempts,
      failedAt: r.failed_at,
      nextAttemptAt: r.next_attempt_at,
    }));
  }
}
