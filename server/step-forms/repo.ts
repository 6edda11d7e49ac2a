import { randomUUID } from 'node:crypto';
import type { Db } from '../db/types.ts';
import type { FieldType } from '../db/schema-content.ts';
import { statement } from '../db/statements.ts';

export interface FieldInput {
  /** Keep a field's identity across revisions by passing its guid; a new field gets a new one. */
  field_guid?: string;
  field_type: FieldType;
  label: string;
  placeholder?: string;
  textarea?: string;
  options?: string[];
}

export interface FieldRow {
  field_revisionid: number;
  form_revisionid: number;
  field_guid: string;
  orderby: number;
  field_type: FieldType;
  label: string;
  placeholder: string;
  textarea: string;
  options: string;
}

export interface FormRow {
  form_revisionid: number;
  stepid: number;
  guideid: number;
  userid: number | null;
  created: number;
}

/** Step form field (reference 2.12) plus `label`, which this server adds: a field needs a caption to be filled in. */
export interface FieldJson {
  field_guid: string;
  field_revisionid: number;
  field_type: FieldType;
  label: string;
  placeholder: string;
  textarea: string;
  options: string[];
}

export interface FormJson {
  form_revisionid: number;
  stepid: number;
  guideid: number;
  created: number;
  fields: FieldJson[];
}

/** Saves a new revision of a step's form: every field gets a new field_revisionid. Call in a transaction. */
export function insertForm(
  db: Db,
  form: { stepid: number; guideid: number; userid: number | null; created: number; fields: FieldInput[] },
): number {
  const formRevisionid = Number(
    statement(db, 'INSERT INTO step_forms (stepid, guideid, userid, created) VALUES (?, ?, ?, ?)').run(
      form.stepid,
      form.guideid,
      form.userid,
      form.created,
    ).lastInsertRowid,
  );
  const insert = statement(
    db,
    `INSERT INTO form_fields (form_revisionid, field_guid, orderby, field_type, label, placeholder, textarea, options)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  form.fields.forEach((field, index) => {
    insert.run(
      formRevisionid,
      field.field_guid ?? randomUUID(),
      index + 1,
      field.field_type,
      field.label,
      field.placeholder ?? '',
      field.textarea ?? '',
      JSON.stringify(field.options ?? []),
    );
  });
  return formRevisionid;
}

export function getForm(db: Db, formRevisionid: number): FormJson | undefined {
  const form = db.prepare('SELECT * FROM step_forms WHERE form_revisionid = ?').get(formRevisionid) as
    FormRow | undefined;
  return form ? formJson(db, form) : undefined;
}

/** The newest form revision of a step, if the step has a form. */
export function getCurrentForm(db: Db, stepid: number): FormJson | undefined {
  const form = db
    .prepare('SELECT * FROM step_forms WHERE stepid = ? ORDER BY form_revisionid DESC LIMIT 1')
    .get(stepid) as FormRow | undefined;
  return form ? formJson(db, form) : undefined;
}

/** The newest form of every step of these guides' current revisions. */
export function getCurrentFormsOfGuides(db: Db, guideids: readonly number[]): FormJson[] {
  const rows = db
    .prepare(
      `SELECT f.* FROM step_forms f
       JOIN (SELECT stepid, MAX(form_revisionid) AS latest FROM step_forms
             WHERE guideid IN (SELECT value FROM json_each(?)) GROUP BY stepid) m ON m.latest = f.form_revisionid
       WHERE f.stepid IN (SELECT s.stepid FROM guides g
                          JOIN guide_revision_steps o ON o.revisionid = g.revisionid
                          JOIN step_revisions s ON s.step_revisionid = o.step_revisionid
                          WHERE g.guideid IN (SELECT value FROM json_each(?)))
       ORDER BY f.guideid, f.stepid`,
    )
    .all(JSON.stringify(guideids), JSON.stringify(guideids)) as FormRow[];
  return rows.map((row) => formJson(db, row));
}

export function getFieldRow(db: Db, fieldRevisionid: number): FieldRow | undefined {
  return db.prepare('SELECT * FROM form_fields WHERE field_revisionid = ?').get(fieldRevisionid) as
    FieldRow | undefined;
}

export function fieldJson(row: FieldRow): FieldJson {
  return {
    field_guid: row.field_guid,
    field_revisionid: row.field_revisionid,
    field_type: row.field_type,
    label: row.label,
    placeholder: row.placeholder,
    textarea: row.textarea,
    options: JSON.parse(row.options) as string[],
  };
}

function formJson(db: Db, form: FormRow): FormJson {
  const fields = db
    .prepare('SELECT * FROM form_fields WHERE form_revisionid = ? ORDER BY orderby')
    .all(form.form_revisionid) as FieldRow[];
  return {
    form_revisionid: form.form_revisionid,
    stepid: form.stepid,
    guideid: form.guideid,
    created: form.created,
    fields: fields.map(fieldJson),
  };
}

/** The highest form_revisionid among the forms of a guide's steps (what a work-log entry pins). */
export function maxFormRevisionid(db: Db, guideid: number): number | null {
  const row = db.prepare('SELECT MAX(form_revisionid) AS max FROM step_forms WHERE guideid = ?').get(guideid) as {
    max: number | null;
  };
  return row.max;
}
