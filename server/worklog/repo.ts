import type { Db } from '../db/types.ts';
import type { WorkStatus } from '../db/schema-content.ts';
import type { Order } from '../http/paging.ts';
import type { EntryClock } from './machine.ts';

export interface EntryRow extends EntryClock {
  entryid: number;
  guideid: number;
  workorderid: string;
  revisionid: number;
  max_form_revisionid: number | null;
  guide_revisionid: number;
  timingid: number | null;
}

export interface WorkDatum {
  label: string;
  value: string;
  field_revisionid: number;
  field_guid: string;
  stepid: number;
}

/**
 * Work-log entry: the public sample's fields (public-shapes.md) plus `revisionid`, `active_stepid`,
 * `pause_duration` (DESIGN.md §7) and `paused_at` (when the running pause or suspension began, else
 * null). `work_data` carries `field_guid` too, so values follow a field across form revisions.
 */
export function entryJson(db: Db, row: EntryRow) {
  const data = db
    .prepare(
      'SELECT label, value, field_revisionid, field_guid, stepid ' +
        'FROM work_log_data WHERE entryid = ? ORDER BY stepid, field_revisionid',
    )
    .all(row.entryid) as WorkDatum[];
  return {
    entryid: row.entryid,
    guideid: row.guideid,
    userid: row.userid,
    workorderid: row.workorderid,
    starttime: row.starttime,
    endtime: row.endtime,
    status: row.status,
    revisionid: row.revisionid,
    active_stepid: row.active_stepid,
    pause_duration: row.pause_duration,
    paused_at: row.paused_at,
    max_form_revisionid: row.max_form_revisionid,
    guide_revisionid: row.guide_revisionid,
    cancelled: row.cancelled,
    duration: row.duration,
    timingid: row.timingid,
    work_data: data,
  };
}

export type EntryJson = ReturnType<typeof entryJson>;

export function getEntry(db: Db, entryid: number): EntryRow | undefined {
  return db.prepare('SELECT * FROM work_log WHERE entryid = ?').get(entryid) as EntryRow | undefined;
}

export function insertEntry(
  db: Db,
  entry: {
    guideid: number;
    userid: number;
    workorderid: string;
    starttime: number;
    active_stepid: number | null;
    max_form_revisionid: number | null;
    guide_revisionid: number;
  },
): number {
  return Number(
    db
      .prepare(
        `INSERT INTO work_log (guideid, userid, workorderid, starttime, status, revisionid, active_stepid,
           max_form_revisionid, guide_revisionid)
         VALUES (@guideid, @userid, @workorderid, @starttime, 'started', 1, @active_stepid,
           @max_form_revisionid, @guide_revisionid)`,
      )
      .run(entry).lastInsertRowid,
  );
}

/** Saves the clock fields of a transition and bumps the revisionid. */
export function saveClock(db: Db, entryid: number, clock: EntryClock): void {
  db.prepare(
    `UPDATE work_log SET status = @status, userid = @userid, endtime = @endtime, active_stepid = @active_stepid,
       paused_stepid = @paused_stepid, paused_at = @paused_at, pause_duration = @pause_duration, cancelled = @cancelled,
       duration = @duration, revisionid = revisionid + 1
     WHERE entryid = @entryid`,
  ).run({ ...clock, entryid });
}

export interface EntryFilter {
  guideid?: number;
  userid?: number;
  workorderid?: string;
  status?: WorkStatus;
}

function where(filter: EntryFilter): { sql: string; params: Record<string, unknown> } {
  const clauses: string[] = [];
  const params: Record<string, unknown> = {};
  for (const key of ['guideid', 'userid', 'workorderid', 'status'] as const) {
    if (filter[key] === undefined) continue;
    clauses.push(`${key} = @${key}`);
    params[key] = filter[key];
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export function listEntries(
  db: Db,
  filter: EntryFilter,
  page: { offset: number; limit: number; order: Order },
): { rows: EntryRow[]; total: number } {
  const { sql, params } = where(filter);
  const rows = db
    .prepare(`SELECT * FROM work_log ${sql} ORDER BY entryid ${page.order} LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit: page.limit, offset: page.offset }) as EntryRow[];
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM work_log ${sql}`).get(params) as { n: number }).n;
  return { rows, total };
}
