/** A step value as the features see it: one form field of a session, and what the site last confirmed. */
export interface ValueRow {
  fieldGuid: string;
  fieldRevisionid: number;
  stepid: number;
  value: string | null;
  serverValue: string | null;
  attachmentId: string | null;
  /** What the technician had saved here before another computer or the site replaced it (StepValue). */
  changedElsewhere: ChangedElsewhere | null;
}

/** A saved value replaced elsewhere: what the technician had saved, and when this computer learned it (unix s). */
export interface ChangedElsewhere {
  was: string;
  at: number;
}

/** A `work_values` row as stored (every column: its checksum covers them all). */
export interface ValueRecord extends Record<string, unknown> {
  session_id: string;
  field_guid: string;
  field_revisionid: number;
  stepid: number;
  value: string | null;
  server_value: string | null;
  attachment_id: string | null;
  changed_elsewhere?: string | null;
}

export const toValue = (v: ValueRecord): ValueRow => ({
  fieldGuid: v.field_guid,
  fieldRevisionid: v.field_revisionid,
  stepid: v.stepid,
  value: v.value,
  serverValue: v.server_value,
  attachmentId: v.attachment_id,
  changedElsewhere: v.changed_elsewhere ? (JSON.parse(v.changed_elsewhere) as ChangedElsewhere) : null,
});
