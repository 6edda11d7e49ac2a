import type { AppApi, GuideDetail, StepFormField } from '../../electron/contract.ts';
import { allLocalGuides, unwrap } from './library.ts';

/** A stored guide whose steps have forms, with its fields by type (the demo has all nine types). */
export async function guideWithForms(
  api: AppApi,
  /** Only guides this accepts. */
  accept: (guide: GuideDetail) => boolean = () => true,
): Promise<{ guide: GuideDetail; fields: { field: StepFormField; stepid: number }[] }> {
  let best: { guide: GuideDetail; fields: { field: StepFormField; stepid: number }[] } | null = null;
  for (const { guideid } of await allLocalGuides(api)) {
    const guide = unwrap(await api.getGuide(guideid));
    if (!accept(guide)) continue;
    const fields = guide.steps.flatMap((step) =>
      step.form ? step.form.fields.map((field) => ({ field, stepid: step.stepid })) : [],
    );
    if (!best || fields.length > best.fields.length) best = { guide, fields };
  }
  if (!best || best.fields.length === 0) throw new Error('no stored guide has a step form');
  return best;
}

/** A stored guide with an Image field, and that field's step and guid. */
export async function photoGuide(api: AppApi): Promise<{ guide: GuideDetail; stepid: number; fieldGuid: string }> {
  for (const { guideid } of await allLocalGuides(api)) {
    const guide = unwrap(await api.getGuide(guideid));
    for (const step of guide.steps) {
      const field = step.form?.fields.find((f) => f.type === 'Image');
      if (field) return { guide, stepid: step.stepid, fieldGuid: field.fieldGuid };
    }
  }
  throw new Error('no stored guide has an Image field');
}

/** A valid value for a field of each simple type (files are attached instead). */
export function sampleValue(field: StepFormField, variant = 0): string | null {
  switch (field.type) {
    case 'Text Input':
      return `Serial SN-${4410 + variant}`;
    case 'Text Area':
      return `Belt worn on the inner edge.\nReplaced with part ${variant}.`;
    case 'Numeric Input':
      return String(42.5 + variant);
    case 'Checkbox':
      return variant % 2 === 0 ? '1' : '0';
    case 'Radios':
    case 'Select':
      return field.options[variant % field.options.length] ?? null;
    default:
      return null;
  }
}

/** The guide of the site with the most form fields, asked of the site itself (before any sync). */
export async function formGuideOnSite(apiUrl: string, token: string): Promise<number> {
  const headers = { Authorization: `api ${token}` };
  const guides = (await (await fetch(`${apiUrl}/guides?limit=200`, { headers })).json()) as { guideid: number }[];
  let best = { guideid: 0, fields: -1 };
  for (const { guideid } of guides) {
    const forms = (await (await fetch(`${apiUrl}/step_forms/guideid/${guideid}`, { headers })).json()) as {
      guideid: number;
      fields: unknown[];
    }[];
    const fields = forms.filter((f) => f.guideid === guideid).reduce((n, f) => n + f.fields.length, 0);
    if (fields > best.fields) best = { guideid, fields };
  }
  return best.guideid;
}

/** A step of a stored guide with a field of this type (the first found), for a session to fill it. */
export async function stepWithField(
  api: AppApi,
  type: StepFormField['type'],
): Promise<{ guideid: number; stepid: number; field: StepFormField }> {
  for (const { guideid } of await allLocalGuides(api)) {
    const step = unwrap(await api.getGuide(guideid)).steps.find((s) => s.form?.fields.some((f) => f.type === type));
    if (step) return { guideid, stepid: step.stepid, field: step.form!.fields.find((f) => f.type === type)! };
  }
  throw new Error(`no stored guide has a field of type ${type}`);
}
