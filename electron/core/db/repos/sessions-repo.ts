import type { HandedBack, SignOff, TakenFrom, WorkSession, WorkStatus } from '../../../contract.ts';
import { RanUnwatchedRepo } from './ran-unwatched.ts';
import type { Db } from '../open.ts';
import type { RowGuard } from '../row-guard.ts';
import { sql } from '../statements.ts';
import { sessionView, waitingWork, type SessionRow } from './session-view.ts';
import { toValue, type ChangedElsewhere, type ValueRecord, type ValueRow } from './value-row.ts';
import { refusedUploads } from './waiting-work.ts';

export type { ValueRow } from './value-row.ts';

export interface SessionState {
  id: string;
  entryid: number | null;
  guideid: number;
  /** The guide revision the session follows, kept until it ends (DESIGN.md §3). */
  guideRevisionid: number;
  workorderid: string;
  userid: number;
  status: WorkStatus;
  serverRevisionid: number | null;
  startedAt: number;
  endedAt: number | null;
  pausedAt: number | null;
  pauseSeconds: number;
  activeStepid: number | null;
  /** When this computer learned the site no longer has it (WorkSession.removedOnSite): read-only here since. */
  removedOnSite: number | null;
  /** When it last took its state from the site, worked on elsewhere; null once changed here (unwatched.ts). */
  stateFromSite: number | null;
  /** The guide revision the site keeps the session's entry on, as its last answer that said; null till one did. */
  siteGuideRevisionid: number | null;
}

const toState = (row: SessionRow): SessionState => ({
  id: row.id,
  entryid: row.entryid,
  guideid: row.guideid,
  guideRevisionid: row.guide_revisionid,
  workorderid: row.workorderid,
  userid: row.userid,
  status: row.status,
  serverRevisionid: row.server_revisionid,
  startedAt: row.started_at,
  endedAt: row.ended_at,
  pausedAt: row.paused_at,
  pauseSeconds: row.pause_seconds,
  activeStepid: row.active_stepid,
  removedOnSite: row.removed_on_site ?? null,
  stateFromSite: row.state_from_site ?? null,
  siteGuideRevisionid: row.site_guide_revisionid ?? null,
});

/** A file attached to a step field, as recorded: `file` is its name in the attachments folder, `bytes` its size. */
export interface AttachmentRecord {
  id: string;
  sessionId: string;
  file: string;
  uploadName: string;
  mime: string;
  bytes: number;
  serverItemid: number | null;
}

/** The local projection of work sessions and their form values, each row checked as it is read (row-guard.ts). */
export class SessionsRepo {
  /** Time a running session counted while Fieldguide was closed, until its technician answers. */
  readonly ranUnwatched: RanUnwatchedRepo;

  constructor(
    private readonly db: Db,
    private readonly guard: RowGuard,
  ) {
    this.ranUnwatched = new RanUnwatchedRepo(db);
  }

  #session(where: 'id' | 'entryid', value: string | number): SessionRow | undefined {
    const row = sql(this.db, `SELECT * FROM work_sessions WHERE ${where} = ?`).get(value) as SessionRow | undefined;
    return row ? this.guard.sound('work_sessions', row) : undefined;
  }

  insert(session: {
    id: string;
    entryid: number | null;
    guideid: number;
    guideRevisionid: number;
    guideTitle: string;
    workorderid: string;
    userid: number;
    status: WorkStatus;
    serverRevisionid: number | null;
    startedAt: number;
    pausedAt: number | null;
    pauseSeconds: number;
    activeStepid: number | null;
    now: number;
    /** Whose session it is on this computer: only they see it and act in it. */
    technician: number;
  }): void {
    sql(
      this.db,
      `INSERT INTO work_sessions (id, entryid, guideid, guide_revisionid, guide_title, workorderid, userid, status,
           server_revisionid, started_at, paused_at, pause_seconds, active_stepid, created_at, updated_at, technician)
         VALUES (@id, @entryid, @guideid, @guideRevisionid, @guideTitle, @workorderid, @userid, @status,
           @serverRevisionid, @startedAt, @pausedAt, @pauseSeconds, @activeStepid, @now, @now, @technician)`,
    ).run(session);
  }

  technicianOf(id: string): number | null {
    return (this.#session('id', id)?.technician as number | null | undefined) ?? null;
  }

  /** A session taken over here by another technician (nothing of the former one's is left to send in it). */
  handOver(id: string, technician: number): void {
    sql(this.db, 'UPDATE work_sessions SET technician = ? WHERE id = ?').run(technician, id);
  }

  state(id: string): SessionState | undefined {
    const row = this.#session('id', id);
    return row ? toState(row) : undefined;
  }

  byEntry(entryid: number): SessionState | undefined {
    const row = this.#session('entryid', entryid);
    return row ? toState(row) : undefined;
  }

  /** Whether another session here of this guide, work order and site user still waits for its start's answer. */
  otherStartOut(start: { id: string; guideid: number; workorderid: string; userid: number }): boolean {
    const row = sql(
      this.db,
      `SELECT 1 FROM work_sessions WHERE entryid IS NULL AND guideid = @guideid AND workorderid = @workorderid
         AND userid = @userid AND id != @id LIMIT 1`,
    ).get(start);
    return row !== undefined;
  }

  /** Writes the clock and status fields of a session. */
  update(id: string, patch: Partial<Omit<SessionState, 'id' | 'guideid' | 'workorderid'>>, now: number): void {
    const columns: Record<string, string> = {
      entryid: 'entryid',
      userid: 'userid',
      status: 'status',
      serverRevisionid: 'server_revisionid',
      startedAt: 'started_at',
      endedAt: 'ended_at',
      pausedAt: 'paused_at',
      pauseSeconds: 'pause_seconds',
      activeStepid: 'active_stepid',
      removedOnSite: 'removed_on_site',
      stateFromSite: 'state_from_site',
      siteGuideRevisionid: 'site_guide_revisionid',
    };
    const entries = Object.entries(patch).filter(([key]) => key in columns);
    if (entries.length === 0) return;
    const sets = entries.map(([key]) => `${columns[key]} = @${key}`).join(', ');
    sql(this.db, `UPDATE work_sessions SET ${sets}, updated_at = @now WHERE id = @id`).run({
      ...Object.fromEntries(entries),
      id,
      now,
    });
  }

  setSignOff(id: string, signOff: SignOff): void {
    sql(this.db, 'UPDATE work_sessions SET sign_off = ? WHERE id = ?').run(JSON.stringify(signOff), id);
  }

  setTakenFrom(id: string, from: TakenFrom): void {
    sql(this.db, 'UPDATE work_sessions SET taken_from = ? WHERE id = ?').run(JSON.stringify(from), id);
  }

  /** What a colleague did with the session before handing it back on the site (null: nothing to say any more). */
  setHandedBack(id: string, back: HandedBack | null): void {
    sql(this.db, 'UPDATE work_sessions SET handed_back = ? WHERE id = ?').run(back && JSON.stringify(back), id);
  }

  values(id: string): ValueRow[] {
    const byStep = sql(this.db, 'SELECT * FROM work_values WHERE session_id = ? ORDER BY stepid, field_guid');
    return (byStep.all(id) as ValueRecord[]).map((record) => toValue(this.guard.sound('work_values', record)));
  }

  setValue(
    id: string,
    value: {
      fieldGuid: string;
      fieldRevisionid: number;
      stepid: number;
      value: string | null;
      attachmentId?: string | null;
    },
    /** What the technician had saved, when the value set is not theirs (a conflict settled with the site's). */
    replaced: ChangedElsewhere | null = null,
  ): void {
    sql(
      this.db,
      `INSERT INTO work_values
           (session_id, field_guid, field_revisionid, stepid, value, attachment_id, changed_elsewhere)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (session_id, field_guid) DO UPDATE SET field_revisionid = excluded.field_revisionid,
           stepid = excluded.stepid, value = excluded.value, attachment_id = excluded.attachment_id,
           changed_elsewhere = excluded.changed_elsewhere`,
    ).run(
      id,
      value.fieldGuid,
      value.fieldRevisionid,
      value.stepid,
      value.value,
      value.attachmentId ?? null,
      replaced && JSON.stringify(replaced),
    );
  }

  /**
   * What the site confirmed: the base of later merges. Local values the technician has not changed follow it;
   * `replaced`, when the one followed was theirs, saved here, says so on the field until they save it again (the
   * first of theirs replaced is what it says; the site back at theirs says nothing more).
   */
  setServerValue(
    id: string,
    fieldGuid: string,
    serverValue: string | null,
    adoptLocally: boolean,
    fallback: { fieldRevisionid: number; stepid: number },
    replaced: ChangedElsewhere | null = null,
  ): void {
    sql(
      this.db,
      `INSERT INTO work_values (session_id, field_guid, field_revisionid, stepid, value, server_value)
         VALUES (@id, @fieldGuid, @fieldRevisionid, @stepid, @serverValue, @serverValue)
         ON CONFLICT (session_id, field_guid) DO UPDATE SET server_value = excluded.server_value,
           value = CASE WHEN @adopt THEN excluded.server_value ELSE value END,
           changed_elsewhere = CASE WHEN NOT @adopt THEN changed_elsewhere
             WHEN json_extract(changed_elsewhere, '$.was') IS @serverValue THEN NULL
             ELSE coalesce(changed_elsewhere, @replaced) END`,
    ).run({
      id,
      fieldGuid,
      serverValue,
      adopt: adoptLocally ? 1 : 0,
      replaced: replaced ? JSON.stringify(replaced) : null,
      ...fallback,
    });
  }

  /**
   * One technician's sessions (of one guide, or all), newest first: every open one, and the `ended` newest
   * of those finished or cancelled (all of them when not given; none with 0).
   */
  list(filter: { guideid?: number; ended?: number }, technician: number): string[] {
    const guide = filter.guideid === undefined ? '' : 'AND guideid = @guideid';
    const rows = sql(
      this.db,
      `SELECT id FROM work_sessions WHERE technician = @technician ${guide}
         AND (status NOT IN ('complete', 'cancelled') OR id IN (
           SELECT id FROM work_sessions WHERE technician = @technician ${guide} AND status IN ('complete', 'cancelled')
           ORDER BY created_at DESC, rowid DESC LIMIT @ended))
         ORDER BY created_at DESC, rowid DESC`,
    ).all({
      technician,
      // LIMIT -1: no limit.
      ended: filter.ended ?? -1,
      ...(filter.guideid === undefined ? {} : { guideid: filter.guideid }),
    }) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** The guides a site user worked on here (any technician row of theirs), newest work first; null: anyone. */
  guidesWorkedOn(userid: number | null, limit: number): number[] {
    const rows = sql(
      this.db,
      `SELECT guideid FROM work_sessions WHERE @userid IS NULL OR userid = @userid
       GROUP BY guideid ORDER BY max(started_at) DESC, guideid LIMIT @limit`,
    ).all({ userid, limit }) as { guideid: number }[];
    return rows.map((row) => row.guideid);
  }

  /** The whole session as the renderer sees it, with the order of this read (WorkSession.readOrder). */
  view(id: string): WorkSession | undefined {
    const row = this.#session('id', id);
    return row ? sessionView(this.db, row, this.values(id)) : undefined;
  }

  /** Why each of the session's files whose upload failed was not sent (the failure's words), by attachment id. */
  refusedUploads(id: string): Map<string, string> {
    return refusedUploads(waitingWork(this.db, id));
  }

  attachment(id: string): AttachmentRecord | undefined {
    return sql(
      this.db,
      'SELECT id, session_id AS sessionId, file, upload_name AS uploadName, ' +
        'mime, bytes, server_itemid AS serverItemid FROM attachments WHERE id = ?',
    ).get(id) as AttachmentRecord | undefined;
  }

  insertAttachment(a: {
    id: string;
    sessionId: string;
    file: string;
    name: string;
    uploadName: string;
    mime: string;
    bytes: number;
    now: number;
    technician: number;
  }): void {
    sql(
      this.db,
      `INSERT INTO attachments (id, session_id, file, name, upload_name, mime, bytes, created_at, technician)
       VALUES (@id, @sessionId, @file, @name, @uploadName, @mime, @bytes, @now, @technician)`,
    ).run(a);
  }

  attachmentUploaded(id: string, itemid: number): void {
    sql(this.db, 'UPDATE attachments SET server_itemid = ? WHERE id = ?').run(itemid, id);
  }
}
