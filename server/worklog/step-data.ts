import { z } from 'zod';
import type { Db } from '../db/types.ts';
import type { FieldType } from '../db/schema-content.ts';
import { invalid, invalidMany, type ErrorDetail } from '../http/errors.ts';
import type { FieldRow } from '../step-forms/repo.ts';
import { isStepOfSession, withPrerequisites } from '../guides/prerequisites.ts';
import type { EntryRow } from './repo.ts';

/**
 * `PUT /work_log/{entryid}/stepData`: `fields` keyed by field_revisionid (public-shapes.md), `lasttimingid`
 * as the client saw it, and two additions: `stepid` (the step the technician is on, when no field says
 * it) and `timestamp` (when they acted). A value of null clears the field.
 */
export const stepDataBody = z.object({
  fields: z.record(z.string(), z.unknown()).default({}),
  lasttimingid: z.number().int().nonnegative().nullable().optional(),
  stepid: z.number().int().positive().optional(),
  timestamp: z.number().nonnegative().optional(),
});
export type StepDataBody = z.infer<typeof stepDataBody>;

const MEDIA_TYPE: Partial<Record<FieldType, string>> = {
  Image: 'GuideImage',
  Video: 'GuideVideoObject',
  Document: 'Document',
};

/** The value as this server stores it (a string), or an error message. */
function normalise(
  db: Db,
  field: FieldRow & { stepid: number },
  value: unknown,
  userid: number,
): string | { error: string } {
  const text =
    typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value : undefined;
  switch (field.field_type) {
    case 'Checkbox':
      if (value === true || value === 1 || value === '1' || value === 'true') return '1';
      if (value === false || value === 0 || value === '0' || value === 'false') return '0';
      return { error: 'a checkbox takes true or false' };
    case 'Numeric Input':
      return text !== undefined && /^-?\d+(\.\d+)?$/.test(text.trim())
        ? text.trim()
        : { error: 'a number is required' };
    case 'Text Input':
      if (text === undefined) return { error: 'text is required' };
      return /[\r\n]/.test(text) ? { error: 'a text input cannot hold line breaks' } : text;
    case 'Text Area':
      return text ?? { error: 'text is required' };
    case 'Radios':
    case 'Select': {
      const options = JSON.parse(field.options) as string[];
      return text !== undefined && options.includes(text) ? text : { error: `one of: ${options.join(', ')}` };
    }
    case 'Image':
    case 'Video':
    case 'Document': {
      const item =
        text !== undefined && /^\d+$/.test(text)
          ? (db.prepare('SELECT type FROM user_media WHERE itemid = ? AND userid = ?').get(Number(text), userid) as
              { type: string } | undefined)
          : undefined;
      if (item?.type === MEDIA_TYPE[field.field_type]) return text!;
      // An image uploaded to iFixit's media manager (`/user/media/images`) is named by its image id.
      const ownImage =
        field.field_type === 'Image' &&
        text !== undefined &&
        /^\d+$/.test(text) &&
        db.prepare('SELECT 1 FROM images WHERE imageid = ? AND ownerid = ?').get(Number(text), userid) !== undefined;
      return ownImage ? text! : { error: `the id of one of your ${MEDIA_TYPE[field.field_type]} media items` };
    }
  }
}

/** Validates and saves step data (one transaction with the caller's revision bump). Returns the active step. */
export function saveStepData(db: Db, entry: EntryRow, body: StepDataBody, userid: number): number | null {
  const errors: ErrorDetail[] = [];
  const values: { field: FieldRow & { stepid: number }; value: string | null }[] = [];
  const guides = withPrerequisites(db, entry.guideid);
  for (const [key, value] of Object.entries(body.fields)) {
    const name = `fields.${key}`;
    // A field of the guide's step forms, or of its prerequisites' (a session goes through their steps first).
    const field = /^\d+$/.test(key)
      ? (db
          .prepare(
            `SELECT f.*, s.stepid FROM form_fields f JOIN step_forms s USING (form_revisionid)
             WHERE f.field_revisionid = ? AND s.guideid IN (SELECT value FROM json_each(?))`,
          )
          .get(Number(key), JSON.stringify(guides)) as (FieldRow & { stepid: number }) | undefined)
      : undefined;
    if (!field) {
      errors.push({ field: name, code: 'unknown_field', message: `${key} is not a field of this guide's step forms` });
      continue;
    }
    const stored = value === null ? null : normalise(db, field, value, userid);
    if (stored !== null && typeof stored === 'object')
      errors.push({ field: name, code: 'invalid_value', message: `${field.label}: ${stored.error}` });
    else values.push({ field, value: stored });
  }
  if (body.stepid !== undefined && !isStepOfSession(db, entry.guideid, body.stepid)) {
    errors.push({ field: 'stepid', code: 'invalid_value', message: 'stepid is not a step of this guide' });
  }
  if (errors.length) throw invalidMany(errors);

  const put = db.prepare(
    `INSERT INTO work_log_data (entryid, field_guid, field_revisionid, stepid, label, value) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (entryid, field_guid) DO UPDATE SET field_revisionid = excluded.field_revisionid,
       stepid = excluded.stepid, label = excluded.label, value = excluded.value`,
  );
  for (const { field, value } of values) {
    if (value === null)
      db.prepare('DELETE FROM work_log_data WHERE entryid = ? AND field_guid = ?').run(entry.entryid, field.field_guid);
    else put.run(entry.entryid, field.field_guid, field.field_revisionid, field.stepid, field.label, value);
  }
  return body.stepid ?? values.at(-1)?.field.stepid ?? null;
}

export function checkTimestamp(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw invalid('timestamp', 'invalid_value', 'timestamp must be unix seconds');
  return Math.floor(value);
}
