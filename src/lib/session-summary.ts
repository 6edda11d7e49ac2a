import type { GuideStep, StepFormField, StepValue, WorkSession } from '../../electron/contract.ts';

/** One value as a summary or report shows it. */
export interface ShownValue {
  label: string;
  text: string;
  attachment: { id: string; name: string; uploaded: boolean } | null;
}

export interface SummaryStep {
  number: number;
  title: string;
  values: ShownValue[];
}

/** A value in words: a checkbox as Yes / No, a file by its name, nothing as "—". */
export function valueText(field: StepFormField | undefined, value: StepValue): string {
  if (value.attachment) return value.attachment.name;
  if (field?.type === 'Checkbox') return value.value === '1' ? 'Yes' : 'No';
  return value.value === null || value.value === '' ? '—' : value.value;
}

/** The steps with a form, each with its fields' values in the form's order (empty ones as "—"). */
export function summarySteps(steps: readonly GuideStep[], values: readonly StepValue[]): SummaryStep[] {
  const byGuid = new Map(values.map((v) => [`${v.stepid}|${v.fieldGuid}`, v]));
  return steps.flatMap((step, index) => {
    if (!step.form) return [];
    const shown = step.form.fields.map((field) => {
      const value = byGuid.get(`${step.stepid}|${field.fieldGuid}`);
      return {
        label: field.label || field.type,
        text: value ? valueText(field, value) : '—',
        attachment: value?.attachment ?? null,
      };
    });
    return [{ number: index + 1, title: step.title, values: shown }];
  });
}
