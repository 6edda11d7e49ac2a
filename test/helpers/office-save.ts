import { expect } from 'vitest';
import type { DemoAccountName } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { api, signIn } from '../server/helpers.ts';

/**
 * Someone else (the office, another computer) saves a value in a work-log entry on the site itself, over REST,
 * on the entry's current revision: the field found by its field_guid on the guide's current forms. Signed in
 * as `who` (tech1 unless said: the entry's technician).
 */
export async function officeSaves(
  site: RunningSite,
  at: { entryid: number; guideid: number },
  field: { fieldGuid: string; stepid: number },
  value: string,
  who: DemoAccountName = 'tech1',
): Promise<void> {
  const { token } = await signIn(site, who);
  const forms = (await api(site, 'GET', `/step_forms/guideid/${at.guideid}`, { token })).body as {
    fields: { field_guid: string; field_revisionid: number }[];
  }[];
  const revision = forms.flatMap((f) => f.fields).find((f) => f.field_guid === field.fieldGuid)!.field_revisionid;
  const entry = (await api(site, 'GET', `/work_log/${at.entryid}`, { token })).body as { revisionid: number };
  const put = await api(site, 'PUT', `/work_log/${at.entryid}/stepData`, {
    token,
    query: { revisionid: entry.revisionid },
    json: { fields: { [revision]: value }, stepid: field.stepid },
  });
  expect(put.status).toBe(200);
}
