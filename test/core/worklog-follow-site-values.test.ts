import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepFormField } from '../../electron/contract.ts';
import { unwrap } from '../helpers/library.ts';
import { formWorkshop, type Client, type FormWorkshop } from '../helpers/worklog-clients.ts';
import { officeSaves } from '../helpers/office-save.ts';

// A value the technician saved here, then replaced on another computer or on the site: a sync follows the site's
// value into the running session (running-look.ts), and the field said nothing of it, the technician reading a
// reading that was not theirs as their own. Over real HTTP against the reference site.
let workshop: FormWorkshop;
let a: Client;
let guideid: number;
let fields: { field: StepFormField; stepid: number }[];
let workorder = 0;

beforeAll(async () => {
  workshop = await formWorkshop();
  guideid = workshop.guideid;
  a = await workshop.client('tech1');
  const guide = unwrap(await a.app.services.api.getGuide(guideid));
  fields = guide.steps
    .flatMap((s) => (s.form ? s.form.fields.map((f) => ({ field: f, stepid: s.stepid })) : []))
    .filter(({ field: f }) => f.type === 'Text Input');
  expect(fields.length).toBeGreaterThanOrEqual(2);
});
afterAll(async () => {
  await workshop?.close();
});

const valueOf = async (sessionId: string, fieldGuid: string) =>
  unwrap(await a.app.services.api.getSession(sessionId)).values.find((v) => v.fieldGuid === fieldGuid);
const onForm = (at: { field: StepFormField; stepid: number }) => ({ fieldGuid: at.field.fieldGuid, stepid: at.stepid });
const save = (sessionId: string, at: { field: StepFormField; stepid: number }, value: string) =>
  a.app.services.api.saveStepData({ sessionId, stepid: at.stepid, values: [{ fieldGuid: at.field.fieldGuid, value }] });

describe('a value saved here and replaced elsewhere', () => {
  it('says what the technician had saved, until they save the field again', async () => {
    const started = unwrap(await a.app.services.api.startSession({ guideid, workorderid: `WO-VAL-${++workorder}` }));
    const [mine, empty] = [fields[0]!, fields[1]!];
    unwrap(await save(started.id, mine, 'FL-HERE'));
    await a.online();
    const entryid = unwrap(await a.app.services.api.getSession(started.id)).entryid!;
    await officeSaves(workshop.site, { entryid, guideid }, onForm(mine), 'FL-THERE');
    await officeSaves(workshop.site, { entryid, guideid }, onForm(empty), 'Filled there');
    expect(unwrap(await a.app.services.api.syncNow()).status).toBe('complete');

    expect(await valueOf(started.id, mine.field.fieldGuid)).toMatchObject({
      value: 'FL-THERE',
      site: 'sent',
      changedElsewhere: { was: 'FL-HERE', at: expect.any(Number) },
    });
    // Its state is still this computer's: nobody paused or resumed it there ("Resumed on another computer…").
    expect(unwrap(await a.app.services.api.getSession(started.id))).toMatchObject({
      status: 'started',
      stateFromSite: null,
    });
    // Nothing of theirs was there to replace: the value is the site's, said as any other.
    expect(await valueOf(started.id, empty.field.fieldGuid)).toMatchObject({
      value: 'Filled there',
      changedElsewhere: null,
    });
    // Replaced again: what the technician had saved is still what it says.
    await officeSaves(workshop.site, { entryid, guideid }, onForm(mine), 'FL-THIRD');
    expect(unwrap(await a.app.services.api.syncNow()).status).toBe('complete');
    expect(await valueOf(started.id, mine.field.fieldGuid)).toMatchObject({
      value: 'FL-THIRD',
      changedElsewhere: { was: 'FL-HERE' },
    });
    // Saved again here: theirs once more, nothing to say.
    unwrap(await save(started.id, mine, 'FL-AGAIN'));
    expect(await valueOf(started.id, mine.field.fieldGuid)).toMatchObject({
      value: 'FL-AGAIN',
      changedElsewhere: null,
    });
    await a.online();
    expect(await valueOf(started.id, mine.field.fieldGuid)).toMatchObject({ site: 'sent', changedElsewhere: null });
  });

  it("says nothing once the site has the technician's value back", async () => {
    const started = unwrap(await a.app.services.api.startSession({ guideid, workorderid: `WO-VAL-${++workorder}` }));
    const mine = fields[0]!;
    unwrap(await save(started.id, mine, 'FL-HERE'));
    await a.online();
    const entryid = unwrap(await a.app.services.api.getSession(started.id)).entryid!;
    await officeSaves(workshop.site, { entryid, guideid }, onForm(mine), 'FL-THERE');
    expect(unwrap(await a.app.services.api.syncNow()).status).toBe('complete');
    expect(await valueOf(started.id, mine.field.fieldGuid)).toMatchObject({ changedElsewhere: { was: 'FL-HERE' } });
    await officeSaves(workshop.site, { entryid, guideid }, onForm(mine), 'FL-HERE');
    expect(unwrap(await a.app.services.api.syncNow()).status).toBe('complete');
    expect(await valueOf(started.id, mine.field.fieldGuid)).toMatchObject({ value: 'FL-HERE', changedElsewhere: null });
  });
});
