import type { ServerContext } from '../context.ts';
import type { Db } from '../db/types.ts';

export type ViewDocType = 'GUIDE' | 'WIKI';

/** View-history record of reference 2.12. */
export interface ViewRecord {
  userid: number;
  username: string;
  doc_type: ViewDocType;
  docid: string;
  date: number;
}

/** Records that a signed-in user viewed a document now (call it from `GET /guides/{id}` and wiki reads). */
export function recordView(ctx: ServerContext, userid: number, docType: ViewDocType, docid: number | string): void {
  ctx.db
    .prepare('INSERT INTO view_history (userid, doc_type, docid, date) VALUES (?, ?, ?, ?)')
    .run(userid, docType, String(docid), ctx.clock.now());
}

export interface ViewFilter {
  userid?: number;
  doc?: { type: ViewDocType; id: string };
  /** Unix seconds, both inclusive. */
  startDate: number | null;
  endDate: number | null;
}

/** Newest first. */
export function views(db: Db, filter: ViewFilter): ViewRecord[] {
  return db
    .prepare(
      `SELECT v.userid, u.username, v.doc_type, v.docid, v.date FROM view_history v JOIN users u USING (userid)
       WHERE (@userid IS NULL OR v.userid = @userid)
         AND (@docType IS NULL OR (v.doc_type = @docType AND v.docid = @docid))
         AND (@start IS NULL OR v.date >= @start) AND (@end IS NULL OR v.date <= @end)
       ORDER BY v.date DESC, v.viewid DESC`,
    )
    .all({
      userid: filter.userid ?? null,
      docType: filter.doc?.type ?? null,
      docid: filter.doc?.id ?? null,
      start: filter.startDate,
      end: filter.endDate,
    }) as ViewRecord[];
}
