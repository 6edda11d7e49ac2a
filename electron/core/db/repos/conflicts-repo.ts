import type { ConflictRecord, WorkStatus } from '../../../contract.ts';
import { SITE_DECIDED } from '../../../shared/site-decided.ts';
import { isEditable } from '../../../shared/worklog.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

export interface NewConflict {
  sessionId: string;
  kind: ConflictRecord['kind'];
  fieldGuid: string | null;
  stepid: number | null;
  label: string;
  mine: string | null;
  theirs: string | null;
  base: string | null;
  message: string;
  /** The session's attached file the value names (a photo on a field the revised form dropped), if any. */
  attachmentId?: string | null;
  /** Whose action met the conflict: only they see and settle it. */
  technician: number;
}

/**
 * A field's type on the guide's current form (its newest revision per step), or null when that form does not
 * have it: SQL for a subquery, over a guide id and a field guid expression.
 */
export const FIELD_TYPE_ON_FORM = (guideid: string, fieldGuid: string): string =>
  `SELECT json_extract(j.value, '$.type') FROM step_forms f, json_each(f.form, '$.fields') j
     WHERE f.guideid = ${guideid} AND json_extract(j.value, '$.fieldGuid') = ${fieldGuid}
       AND f.form_revisionid = (SELECT max(form_revisionid) FROM step_forms g
                                WHERE g.guideid = f.guideid AND g.stepid = f.stepid)
     LIMIT 1`;

type StepOfSession = { number: number; title: string | null; fieldType: FieldType | null };
type ConflictRow = Omit<ConflictRecord, 'keepable' | 'offForm' | 'step' | 'attachment'> & {
  status: WorkStatus | null;
  /** 1 while the session is the technician's on the site: not removed there, nor taken over by someone else. */
  stillMine: 0 | 1 | null;
  stepJson: string | null;
  attachmentId: string | null;
  attachmentName: string | null;
  attachmentMime: string | null;
};
type FieldType = NonNullable<ConflictRecord['fieldType']>;

/** Open records that need the technician to decide: notices are only to read, and counted apart from these. */
export const TO_SETTLE = "settled IS NULL AND kind != 'notice'";

/** Every disagreement with the site, kept until the technician settles it; and notices, until read. */
export class ConflictsRepo {
  constructor(private readonly db: Db) {}

  add(conflict: NewConflict, now: number): ConflictRecord {
    const id = Number(
      sql(
        this.db,
        `INSERT INTO conflicts (session_id, kind, field_guid, stepid, label, mine, theirs, base, message, created_at,
             technician, attachment_id)
           VALUES (@sessionId, @kind, @fieldGuid, @stepid, @label, @mine, @theirs, @base, @message, @now, @technician,
             @attachmentId)`,
      ).run({ ...conflict, attachmentId: conflict.attachmentId ?? null, now }).lastInsertRowid,
    );
    return this.get(id)!;
  }

  get(id: number): ConflictRecord | undefined {
    const row = sql(
      this.db,
      `SELECT c.id, c.session_id AS sessionId, coalesce(s.guide_title, '') AS guideTitle,
           coalesce(s.workorderid, '') AS workorderid, c.kind, c.field_guid AS fieldGuid, c.stepid, c.label, c.mine,
           c.theirs, c.base, c.message, c.created_at AS createdAt, s.status,
           s.removed_on_site IS NULL AND s.userid IS (SELECT t.userid FROM technicians t WHERE t.id = s.technician)
             AS stillMine,
           (${FIELD_TYPE_ON_FORM('s.guideid', 'c.field_guid')}) AS fieldType,
           (SELECT json_object('number', st.key + 1, 'title', json_extract(st.value, '$.title'),
                     'fieldType', (SELECT json_extract(fl.value, '$.type') FROM json_each(st.value, '$.form.fields') fl
                                   WHERE json_extract(fl.value, '$.fieldGuid') = c.field_guid))
              FROM guide_revisions r, json_each(r.detail, '$.steps') st
             WHERE r.guideid = s.guideid AND r.revisionid = s.guide_revisionid
               AND json_extract(st.value, '$.stepid') = c.stepid LIMIT 1) AS stepJson,
           a.id AS attachmentId, a.name AS attachmentName, a.mime AS attachmentMime
         FROM conflicts c LEFT JOIN work_sessions s ON s.id = c.session_id
           LEFT JOIN attachments a ON a.id = c.attachment_id AND a.session_id = c.session_id
         WHERE c.id = ?`,
    ).get(id) as ConflictRow | undefined;
    if (!row) return undefined;
    const { status, stillMine, stepJson, attachmentId, attachmentName, attachmentMime, ...record } = row;
    // The step as the session knew it (its revision): the run's step number, its title, the field's type there.
    const step = stepJson ? (JSON.parse(stepJson) as StepOfSession) : null;
    const onForm = record.kind === 'field' && record.fieldType !== null;
    const offForm = record.kind === 'field' && !onForm;
    return {
      ...record,
      fieldType: record.kind !== 'field' ? null : (record.fieldType ?? step?.fieldType ?? null),
      // As the session's own saves are (session-access.ts, editable): a session removed on the site, or taken
      // over there, takes no value of this computer's any more; its card offered Keep yours, refused.
      keepable: onForm && status !== null && isEditable(status) && stillMine === 1,
      offForm,
      step: step ? { number: step.number, title: step.title ?? '' } : null,
      attachment:
        attachmentId !== null && attachmentName !== null && attachmentMime !== null
          ? { id: attachmentId, name: attachmentName, mime: attachmentMime }
          : null,
    };
  }

  /** One technician's open conflicts. */
  open(technician: number): ConflictRecord[] {
    const ids = sql(this.db, 'SELECT id FROM conflicts WHERE settled IS NULL AND technician = ? ORDER BY id').all(
      technician,
    ) as { id: number }[];
    return ids.map((r) => this.get(r.id)!);
  }

  /** The open record of a session's state that the site decided (kind `transition`): one per session. */
  openOfSession(sessionId: string, technician: number): ConflictRecord | undefined {
    const row = sql(
      this.db,
      "SELECT id FROM conflicts WHERE settled IS NULL AND kind = 'transition' " +
        'AND session_id = ? AND technician = ? ORDER BY id LIMIT 1',
    ).get(sessionId, technician) as { id: number } | undefined;
    return row ? this.get(row.id) : undefined;
  }

  /** The newest record that said the session was taken over on the site: when it was made, and whether it was read. */
  takenOverOf(sessionId: string): { createdAt: number; settled: boolean } | undefined {
    const row = sql(
      this.db,
      `SELECT created_at AS createdAt, settled IS NOT NULL AS settled FROM conflicts
       WHERE session_id = ? AND kind = 'transition' AND label LIKE ? ORDER BY id DESC LIMIT 1`,
    ).get(sessionId, `${SITE_DECIDED.takenOver} %`) as { createdAt: number; settled: number } | undefined;
    return row ? { createdAt: row.createdAt, settled: row.settled === 1 } : undefined;
  }

  /** More of the technician's unsent work joins a session's open record. */
  amend(id: number, change: { mine: string | null; theirs: string | null; message: string }): ConflictRecord {
    sql(this.db, 'UPDATE conflicts SET mine = @mine, theirs = @theirs, message = @message WHERE id = @id').run({
      ...change,
      id,
    });
    return this.get(id)!;
  }

  technicianOf(id: number): number | null {
    return (
      (
        sql(this.db, 'SELECT technician FROM conflicts WHERE id = ?').get(id) as
          { technician: number | null } | undefined
      )?.technician ?? null
    );
  }

  /** The site's value the technician last chose theirs over on a field ("Keep yours"), if they did. */
  keptMineOver(sessionId: string, fieldGuid: string): { theirs: string | null } | undefined {
    return sql(
      this.db,
      `SELECT theirs FROM conflicts WHERE session_id = ? AND field_guid = ? AND kind = 'field' AND settled = 'mine'
         ORDER BY settled_at DESC, id DESC LIMIT 1`,
    ).get(sessionId, fieldGuid) as { theirs: string | null } | undefined;
  }

  settle(id: number, keep: 'mine' | 'theirs', now: number): boolean {
    return (
      sql(this.db, 'UPDATE conflicts SET settled = ?, settled_at = ? WHERE id = ? AND settled IS NULL').run(
        keep,
        now,
        id,
      ).changes > 0
    );
  }
}
