import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

/** Guides whose listing changed but whose content is not stored yet. Durable, so a sync resumes. */
export class SyncQueueRepo {
  constructor(private readonly db: Db) {}

  enqueue(guideid: number, revisionid: number): void {
    sql(this.db, 
        `INSERT INTO sync_queue (guideid, revisionid) VALUES (?, ?)
         ON CONFLICT(guideid) DO UPDATE SET revisionid = excluded.revisionid`,
      )
      .run(guideid, revisionid);
  }

  /** Queued guides after `afterId`, a page at a time. */
  page(afterId: number, limit: number): { guideid: number; revisionid: number; attempts: number }[] {
    return sql(this.db, 'SELECT guideid, revisionid, attempts FROM sync_queue WHERE guideid > ? ORDER BY guideid LIMIT ?').all(afterId, limit) as {
      guideid: number;
      revisionid: number;
      attempts: number;
    }[];
  }

  size(): number {
    return (sql(this.db, 'SELECT count(*) AS n FROM sync_queue').get() as { n: number }).n;
  }

  done(guideid: number): void {
    sql(this.db, 'DELETE FROM sync_queue WHERE guideid = ?').run(guideid);
  }

  failed(guideid: number, error: string): void {
    sql(this.db, 'UPDATE sync_queue SET attempts = attempts + 1, last_error = ? WHERE guideid = ?').run(error, guideid);
  }
}
