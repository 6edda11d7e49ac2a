import { z } from 'zod';

// Step forms (reference 2.12). `options` is a JSON array, sometimes sent as a JSON string; `label` is
// not public (the reference server adds it), so a form without one still parses.
const optionsWire = z
  .union([z.array(z.union([z.string(), z.number()])), z.string(), z.null()])
  .optional()
  .transform((value): string[] => {
    if (value == null || value === '') return [];
    if (Array.isArray(value)) return value.map(String);
    try {
      const parsed: unknown = JSON.parse(value);
      return Array.isArray(parsed) ? parsed.map(String) : [];
    } catch {
      return [];
    }
  });

export const stepFieldWire = z
  .object({
    field_guid: z.string().min(1),
    field_revisionid: z.number().int(),
    field_type: z.enum([
      'Text Input',
      'Text Area',
      'Numeric Input',
      'Checkbox',
      'Radios',
      'Select',
      'Image',
      'Video',
      'Document',
    ]),
    label: z.string().nullish(),
    placeholder: z.union([z.string(), z.number()]).nullish(),
    textarea: z.union([z.string(), z.number()]).nullish(),
    options: optionsWire,
  })
  .loose();

export const stepFormWire = z
  .object({
    form_revisionid: z.number().int(),
    stepid: z.number().int(),
    guideid: z.number().int().nullish(),
    fields: z.array(stepFieldWire),
  })
  .loose();
export type StepFormWire = z.infer<typeof stepFormWire>;

export const stepFormListWire = z.array(stepFormWire);
