import type { StepFormField } from '../../electron/contract.ts';

/** A step form field of a type, labelled by its type, with what a test says over it. */
export const field = (type: StepFormField['type'], over: Partial<StepFormField> = {}): StepFormField => ({
  fieldGuid: `g-${type}`,
  fieldRevisionid: 1,
  type,
  label: type,
  placeholder: '',
  textarea: '',
  options: [],
  ...over,
});
