import type { StepFieldType, StepFormField } from '../contract.ts';

/** Reference 2.12: Image, Video and Document fields take a file, not typed text. */
export const isMediaField = (type: StepFieldType): boolean =>
  type === 'Image' || type === 'Video' || type === 'Document';

/**
 * Whether an attached file is a photo (by its mime): a photo is read back from this computer, at its step and
 * in the session report; a video or a document never is (its name is shown).
 */
export const isPhoto = (mime: string): boolean => mime.startsWith('image/');

/**
 * Checks a value against its field as reference 2.12 describes the field types, and returns it as the
 * site stores it (strings; checkboxes as "1"/"0"), or an error in a technician's words.
 */
export function checkFieldValue(
  field: StepFormField,
  value: string | null,
): { ok: true; value: string | null } | { ok: false; message: string } {
  if (value === null) return { ok: true, value: null };
  const label = field.label || 'This field';
  switch (field.type) {
    case 'Text Input':
      return /[\r\n]/.test(value)
        ? { ok: false, message: `${label}: a single line, without line breaks` }
        : { ok: true, value };
    case 'Text Area':
      return { ok: true, value };
    case 'Numeric Input': {
      const trimmed = value.trim();
      return /^-?\d+(\.\d+)?$/.test(trimmed)
        ? { ok: true, value: trimmed }
        : { ok: false, message: `${label}: a number, like 12 or 3.5` };
    }
    case 'Checkbox':
      if (['1', 'true'].includes(value)) return { ok: true, value: '1' };
      if (['0', 'false'].includes(value)) return { ok: true, value: '0' };
      return { ok: false, message: `${label}: checked or not checked` };
    case 'Radios':
    case 'Select':
      return field.options.includes(value)
        ? { ok: true, value }
        : { ok: false, message: `${label}: one of ${field.options.join(', ')}` };
    case 'Image':
    case 'Video':
    case 'Document':
      return { ok: false, message: `${label}: attach a file instead` };
  }
}

/**
 * The problem a form shows under a field while the technician types, in the words the App API would
 * refuse the value with; an empty field, or a file field, has none.
 */
export function fieldProblem(field: StepFormField, value: string | null): string | null {
  if (value === null || value === '' || isMediaField(field.type)) return null;
  const checked = checkFieldValue(field, value);
  return checked.ok ? null : checked.message;
}

/** What a site that takes pictures only (iFixit's media manager) does not take, in the technician's words. */
export const PICTURES_ONLY = 'This site takes pictures only: it does not take videos or documents';
/** A Video or Document field of such a site: its value is a video's or a document's, which it does not make. */
export const NO_FILE_HERE = `${PICTURES_ONLY}, so this field cannot be filled in from here.`;
/** Such a site's Video and Document fields: nothing can fill them from here (not "not answered" work left). */
export const takesNoFile = (field: { type: string }, picturesOnly: boolean): boolean =>
  picturesOnly && (field.type === 'Video' || field.type === 'Document');
/** What the summary and the report show in such a field. */
export const NO_FILE_WORDS = 'Cannot be filled in here: the site takes pictures only';
