import { describe, expect, it } from 'vitest';
import type { StepFormField, StepValue } from '../../electron/contract.ts';
import { always, onPaths, PASS } from '../fault/proxy.ts';
import { api, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { overProxyForFile } from '../helpers/services.ts';
import { sampleValue, stepWithField } from '../helpers/worklog.ts';

// A step save the site refuses for good: a choice the technician made offline that the site's revised form
// no longer offers. The refused save held the rest of the session (the next saves, the finish) and a new
// save of the same field waited behind it, until the technician found the old save in the sync centre and
// discarded it. Saved again, the field now leaves the refused save, and the session goes on.
const over = overProxyForFile(true);

describe('a step save the site refused', () => {
  it('gives way when the technician saves the field again; the rest of the session goes', async () => {
    const app = over.app.services.api;
    const radios = await stepWithField(app, 'Radios');
    const [dropped, keptOption] = radios.field.options;
    const session = unwrap(await app.startSession({ guideid: radios.guideid, workorderid: 'WO-REFUSED-SAVE' }));
    await sendAll();

    // Offline, the technician picks a choice the site's author removes meanwhile.
    over.proxy.setSchedule(onPaths(/\/work_log/, always({ kind: 'reset' })));
    await save(session.id, radios.stepid, radios.field, dropped!);
    await reviseOptions(radios.stepid, radios.field, [keptOption!, 'Replace now']);
    expect(unwrap(await app.syncNow()).status).toBe('complete');
    over.proxy.passAll();
    await sendAll();
    const [refused] = await waiting(session.id);
    // The sync centre links it to its step (numbered as the step list shows it), where it is changed.
    const number = unwrap(await app.getGuide(radios.guideid)).steps.findIndex((s) => s.stepid === radios.stepid) + 1;
    expect([refused?.kind, refused?.state, refused?.error, refused?.step]).toEqual([
      'stepData',
      'failed',
      expect.stringContaining(`${radios.field.label}: one of: ${keptOption}, Replace now`),
      number,
    ]);

    // Another value waits behind it; the session counts the refused choice as not on the site.
    const other = await otherField(radios.guideid, radios.field);
    await save(session.id, other.stepid, other.field, sampleValue(other.field, 1)!);
    await sendAll();
    expect((await waiting(session.id)).map((a) => [a.kind, a.state])).toEqual([
      ['stepData', 'failed'],
      ['stepData', 'pending'],
    ]);
    // The field says why (the site's words), until it is saved again.
    const held = unwrap(await app.getSession(session.id)).values.find((v) => v.fieldGuid === radios.field.fieldGuid);
    expect([held?.site, held?.notSent]).toEqual(['refused', refused?.error]);

    // Saved again with a choice the site takes: the refused save gives way (the new value joins the save
    // waiting for the same step), and the rest and the finish go.
    await save(session.id, radios.stepid, radios.field, keptOption!);
    // (it may be on its way already)
    expect((await waiting(session.id)).map((a) => [a.kind, a.state === 'failed'])).toEqual([['stepData', false]]);
    unwrap(await app.transitionSession({ sessionId: session.id, transition: 'finish' }));
    await sendAll();
    expect(await waiting(session.id)).toEqual([]);
    const done = unwrap(await app.getSession(session.id));
    expect(siteOf(done.values, radios.field)).toBe('sent');
    const tech = await signIn(over.site, 'tech1');
    const entry = (await api(over.site, 'GET', `/work_log/${done.entryid}`, { token: tech.token })).body as {
      status: string;
      work_data: { field_guid: string; value: string }[];
    };
    const onSite = (field: StepFormField) => entry.work_data.find((d) => d.field_guid === field.fieldGuid)?.value;
    expect([entry.status, onSite(radios.field), onSite(other.field)]).toEqual([
      'complete',
      keptOption,
      sampleValue(other.field, 1),
    ]);
  });

  it('saved again before the site refused it: the refused save gives way to the newer value', async () => {
    const app = over.app.services.api;
    const radios = await stepWithField(app, 'Radios');
    const [first, second] = radios.field.options;
    const session = unwrap(await app.startSession({ guideid: radios.guideid, workorderid: 'WO-SAVED-MEANWHILE' }));
    await sendAll();
    // The first save meets no site once, so the next is a save of its own behind it (not merged into it).
    over.proxy.setSchedule(onPaths(/\/stepData/, always({ kind: 'reset' })));
    await save(session.id, radios.stepid, radios.field, first!);
    unwrap(await app.flushOutbox());
    await save(session.id, radios.stepid, radios.field, second!);
    expect((await waiting(session.id)).map((a) => a.kind)).toEqual(['stepData', 'stepData']);
    // The site refuses the first for good: the technician's newer value goes instead, nothing is held.
    let refusedOnce = false;
    over.proxy.setSchedule(
      onPaths(/\/stepData/, () => {
        if (refusedOnce) return PASS;
        refusedOnce = true;
        return { kind: 'status', status: 400, message: `${radios.field.label}: one of: ${second}` };
      }),
    );
    try {
      await sendAll();
    } finally {
      over.proxy.passAll();
    }
    expect([refusedOnce, await waiting(session.id)]).toEqual([true, []]);
    const done = unwrap(await app.getSession(session.id));
    expect(done.values.map((v) => [v.value, v.site, v.notSent])).toEqual([[second, 'sent', null]]);
  });
});

/** The site's author revises the step's form: the field keeps its guid, with these options. */
async function reviseOptions(stepid: number, field: StepFormField, options: string[]): Promise<void> {
  const app = over.app.services.api;
  const guide = unwrap(await app.getGuide((await stepWithField(app, 'Radios')).guideid));
  const form = guide.steps.find((s) => s.stepid === stepid)!.form!;
  const fields = form.fields.map((f) => ({
    field_guid: f.fieldGuid,
    field_type: f.type,
    label: f.label,
    ...(f.placeholder ? { placeholder: f.placeholder } : {}),
    ...(f.fieldGuid === field.fieldGuid ? { options } : f.options.length ? { options: f.options } : {}),
  }));
  const author = await signIn(over.site, 'author');
  const posted = await api(over.site, 'POST', `/step_forms/${stepid}`, { token: author.token, json: { fields } });
  expect(posted.status).toBe(201);
}

const siteOf = (values: StepValue[], field: StepFormField) => values.find((v) => v.fieldGuid === field.fieldGuid)?.site;

/** Another field of the guide that takes a typed value (on the same step or another). */
async function otherField(guideid: number, not: StepFormField): Promise<{ stepid: number; field: StepFormField }> {
  const guide = unwrap(await over.app.services.api.getGuide(guideid));
  for (const step of guide.steps) {
    const field = step.form?.fields.find((f) => f.fieldGuid !== not.fieldGuid && sampleValue(f) !== null);
    if (field) return { stepid: step.stepid, field };
  }
  throw new Error('the guide has no other field to type in');
}

async function save(sessionId: string, stepid: number, field: StepFormField, value: string): Promise<void> {
  unwrap(
    await over.app.services.api.saveStepData({ sessionId, stepid, values: [{ fieldGuid: field.fieldGuid, value }] }),
  );
}

/** "Send now" until nothing more goes. */
async function sendAll(): Promise<void> {
  const app = over.app.services.api;
  let summary = unwrap(await app.flushOutbox());
  for (let i = 0; i < 20 && summary.pending + summary.inFlight > 0; i++) summary = unwrap(await app.flushOutbox());
}

/** What the Sync centre lists of a session. */
async function waiting(sessionId: string) {
  return unwrap(await over.app.services.api.getOutbox()).actions.filter((a) => a.sessionId === sessionId);
}
