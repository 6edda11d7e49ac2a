/** A step value as the features see it: one form field of a session, and what the site last confirmed. */
export interface ValueRow {
  fieldGuid: string;
  fieldRevisionid: number;
  stepid: number;
  value: string | null;
  serverValue: string | null;
  attachmentId: string | null;
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
}

export const toValue = (v: ValueRecord): ValueRow => ({
  fieldGuid: v.field_guid,
  fieldRevisionid: v.field_revisionid,
  stepid: v.stepid,
  value: v.value,
  serverValue: v.server_value,
  attachmentId: v.attachment_id,
});
