import type { SignOff, StepValue, TakenFrom, ValueOnSite, WorkSession, WorkStatus } from '../../../contract.ts';
import { chainKey } from '../chains.ts';
import type { Db } from '../open.ts';
import { nextRead } from '../read-order.ts';
import { sql } from '../statements.ts';
import { TO_SETTLE } from './conflicts-repo.ts';
import { readRan } from './ran-unwatched.ts';
import { handedBack, siteDecided, stateNotOnSite } from './session-site-state.ts';
import { fieldConflicts, offFormFields } from './value-conflicts.ts';
import type { ValueRow } from './value-row.ts';
import { queuedFields, refusedSaves, refusedUploads, type WaitingWork } from './waiting-work.ts';

// A work session as the renderer sees it (sessions-repo.ts `view`): its row, its values and where each stands
// with the site, its counts, and what the site decided of it.

/** A row of work_sessions, as read with `SELECT *` and checked (row-guard.ts). */
export interface SessionRow extends Record<string, unknown> {
  id: string;
  entryid: number | null;
  guideid: number;
  guide_revisionid: number;
  guide_title: string;
  workorderid: string;
  userid: number;
  status: WorkStatus;
  server_revisionid: number | null;
  started_at: number;
  ended_at: number | null;
  paused_at: number | null;
  pause_seconds: number;
  active_stepid: number | null;
  sign_off?: string | null;
  taken_from?: string | null;
  ran_unwatched?: string | null;
  removed_on_site?: number | null;
  state_from_site?: number | null;
  site_guide_revisionid?: number | null;
  handed_back?: string | null;
}

/** The whole session as the renderer sees it, from its row and values, with the order of this read. */
export function sessionView(db: Db, row: SessionRow, rows: ValueRow[]): WorkSession {
  const id = row.id;
  const counts = sql(
    db,
    `SELECT (SELECT count(*) FROM outbox WHERE chain = @chain AND state != 'failed') AS pending,
              (SELECT count(*) FROM outbox WHERE chain = @chain AND state = 'failed') AS failed,
              (SELECT count(*) FROM conflicts WHERE session_id = @id AND ${TO_SETTLE}) AS conflicts,
              (SELECT stored_revisionid FROM guides WHERE guideid = @guideid) AS stored`,
  ).get({ id, chain: chainKey({ type: 'session', id }), guideid: row.guideid }) as {
    pending: number;
    failed: number;
    conflicts: number;
    stored: number | null;
  };
  const attachments = new Map(
    (
      sql(db, 'SELECT id, name, mime, server_itemid FROM attachments WHERE session_id = ?').all(id) as {
        id: string;
        name: string;
        mime: string;
        server_itemid: number | null;
      }[]
    ).map((a) => [a.id, a]),
  );
  const waiting = waitingWork(db, id);
  const queued = queuedFields(waiting);
  const notSent = refusedUploads(waiting);
  const refusedSave = refusedSaves(waiting);
  const conflicts = fieldConflicts(db, id, row.guideid);
  // Looked up only for a value the site does not have (rare; a view is read after each replayed action).
  let dropped: Set<string> | undefined;
  const offForm = (guid: string) => (dropped ??= offFormFields(db, id, row.guideid)).has(guid);
  const values: StepValue[] = rows.map((v) => {
    const attachment = v.attachmentId ? attachments.get(v.attachmentId) : undefined;
    // A file's value on the site is its media item id, which the local row does not repeat.
    const confirmed = attachment
      ? attachment.server_itemid !== null && v.serverValue !== null
      : (v.value ?? null) === (v.serverValue ?? null);
    // A file whose upload failed does not reach the site, whatever waits behind it to name it there.
    const refused = attachment && attachment.server_itemid === null ? (notSent.get(attachment.id) ?? null) : null;
    const site: ValueOnSite =
      refused !== null
        ? 'refused'
        : (queued.get(v.fieldGuid) ?? (confirmed ? 'sent' : offForm(v.fieldGuid) ? 'kept' : 'refused'));
    return {
      site,
      notSent: site === 'refused' && !attachment ? (refusedSave.get(v.fieldGuid) ?? null) : null,
      dropped: site === 'refused' && refused === null && !queued.has(v.fieldGuid) && !conflicts.has(v.fieldGuid),
      conflict: conflicts.get(v.fieldGuid) ?? null,
      changedElsewhere: v.changedElsewhere,
      fieldGuid: v.fieldGuid,
      fieldRevisionid: v.fieldRevisionid,
      stepid: v.stepid,
      value: v.value,
      attachment: attachment
        ? {
            id: attachment.id,
            name: attachment.name,
            mime: attachment.mime,
            uploaded: attachment.server_itemid !== null,
            notSent: refused,
          }
        : null,
    };
  });
  return {
    id: row.id,
    entryid: row.entryid,
    guideid: row.guideid,
    guideRevisionid: row.guide_revisionid,
    guideTitle: row.guide_title,
    workorderid: row.workorderid,
    userid: row.userid,
    status: row.status,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    pausedAt: row.paused_at,
    pauseSeconds: row.pause_seconds,
    activeStepid: row.active_stepid,
    values,
    pendingActions: counts.pending,
    failedActions: counts.failed,
    openConflicts: counts.conflicts,
    signOff: parseJson(row.sign_off, (v: SignOff) => typeof v?.name === 'string' && typeof v.at === 'number'),
    takenFrom: parseJson(row.taken_from, (v: TakenFrom) => typeof v?.userid === 'number'),
    handedBack: handedBack(db, row, row.handed_back),
    ranUnwatched: row.status === 'started' ? readRan(row.ran_unwatched) : null,
    siteDecided: siteDecided(db, row),
    removedOnSite: row.removed_on_site ?? null,
    stateFromSite: row.state_from_site ?? null,
    stateNotOnSite: stateNotOnSite(db, chainKey({ type: 'session', id })),
    guideRevised: counts.stored !== null && counts.stored !== row.guide_revisionid,
    siteGuideRevisionid: row.site_guide_revisionid ?? null,
    readOrder: nextRead(),
  };
}

/** The session's step data and uploads not on the site yet, in order (what `view` tells of its values). */
export function waitingWork(db: Db, id: string): WaitingWork[] {
  return sql(
    db,
    `SELECT kind, payload, state, last_error AS error FROM outbox
     WHERE chain = ? AND kind IN ('stepData', 'upload') ORDER BY id`,
  ).all(chainKey({ type: 'session', id })) as WaitingWork[];
}

/** A JSON column's value when it is sound; null otherwise (a damaged value is not shown as anything). */
function parseJson<T>(json: string | null | undefined, sound: (value: T) => boolean): T | null {
  if (!json) return null;
  try {
    const value = JSON.parse(json) as T;
    return sound(value) ? value : null;
  } catch {
    return null;
  }
}
