import type { StepFieldType, StepFormField, StepValue } from '../../electron/contract.ts';
import { isMediaField } from '../../electron/shared/field-values.ts';

// How a step form behaves while a technician types; what a value may be is the shared rule
// (electron/shared/field-values.ts), which the App API checks again.

/**
 * The hint shown in an empty field: Text Inputs use `placeholder`, Text Areas use `textarea` (each ignores the other).
 */
export function hintOf(field: StepFormField): string {
  switch (field.type) {
    case 'Text Input':
    case 'Numeric Input':
      return field.placeholder;
    case 'Text Area':
      return field.textarea;
    default:
      return '';
  }
}

/**
 * What a field holds before the technician touches it: a Checkbox is checked when `placeholder` is `1`;
 * any other untouched checkbox is not answered (null), never "No" (issue 28): a safety item nobody looked
 * at must not pass as answered.
 */
export function defaultValue(field: StepFormField): string | null {
  return field.type === 'Checkbox' && field.placeholder.trim() === '1' ? '1' : null;
}

/** A Text Input holds one line: pasted line breaks become spaces. Other text is kept as typed. */
export function cleanInput(field: StepFormField, raw: string): string {
  return field.type === 'Text Input' ? raw.replace(/\r\n|\r|\n/g, ' ') : raw;
}

/** An empty text and no value are the same thing to a technician. */
export const sameValue = (a: string | null | undefined, b: string | null | undefined): boolean =>
  (a || null) === (b || null);

/** The value a field shows: what is being typed, else what was saved, else the field's default. */
export function shownValue(
  field: StepFormField,
  saved: StepValue | undefined,
  typed: string | undefined,
): string | null {
  if (typed !== undefined) return typed;
  if (saved) return saved.value;
  return defaultValue(field);
}

/**
 * The values "Save" sends: typed fields that differ from what is saved, and unsaved defaults (a checkbox
 * the form checks by default). Leaving a step by the step list or Previous sends only what was typed
 * (`typedOnly`): looking through the steps records nothing.
 */
export function valuesToSave(
  fields: StepFormField[],
  saved: ReadonlyMap<string, StepValue>,
  typed: Readonly<Record<string, string>>,
  typedOnly = false,
): { fieldGuid: string; value: string | null }[] {
  const out: { fieldGuid: string; value: string | null }[] = [];
  for (const field of fields) {
    if (isMediaField(field.type)) continue;
    if (typedOnly && typed[field.fieldGuid] === undefined) continue;
    const have = saved.get(field.fieldGuid);
    const value = shownValue(field, have, typed[field.fieldGuid]);
    if (have && sameValue(have.value, value)) continue;
    if (!have && (value === null || value === '')) continue;
    out.push({
      fieldGuid: field.fieldGuid,
      value: field.type === 'Numeric Input' && value !== null ? value.trim() : value || null,
    });
  }
  return out;
}

/** What the file picker offers for a media field. */
export function acceptOf(type: StepFieldType): string | undefined {
  if (type === 'Image') return 'image/*';
  if (type === 'Video') return 'video/*';
  if (type === 'Document') return '.pdf,.txt,.doc,.docx,.xls,.xlsx,.csv,image/*';
  return undefined;
}
