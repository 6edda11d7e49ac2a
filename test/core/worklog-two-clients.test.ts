import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GuideDetail, StepFormField } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import { always, onPaths, PASS } from '../fault/proxy.ts';
import { api, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { formWorkshop, type Client, type FormWorkshop } from '../helpers/worklog-clients.ts';
import { officeSaves } from '../helpers/office-save.ts';
import { sampleValue } from '../helpers/worklog.ts';

// Two computers against one real site, each behind its own proxy so each can lose the network alone.
// DESIGN.md §6: every case ends with nothing a technician entered lost, and every conflict shown.
let workshop: FormWorkshop;
let site: RunningSite;
let guideid: number;
let workorder = 0;

let a: Client;
let b: Client;
let tech2: Client;
let guide: GuideDetail;
let fields: { field: StepFormField; stepid: number }[];

beforeAll(async () => {
  workshop = await formWorkshop();
  ({ site, guideid } = workshop);
  const client = workshop.client;
  [a, b, tech2] = [await client('tech1'), await client('tech1'), await client('tech2')];
  guide = unwrap(await a.app.services.api.getGuide(guideid));
  fields = guide.steps
    .flatMap((s) => (s.form ? s.form.fields.map((field) => ({ field, stepid: s.stepid })) : []))
    .filter(({ field }) => sampleValue(field) !== null);
  expect(fields.length).toBeGreaterThanOrEqual(2);
});
afterAll(async () => {
  await workshop?.close();
});
beforeEach(() => workshop.passAll());

/** A session started on `a` and replayed, then opened on `b` too (the same technician's second computer). */
async function sharedSession(): Promise<{ onA: string; onB: string; entryid: number }> {
  const started = unwrap(await a.app.services.api.startSession({ guideid, workorderid: `WO-${++workorder}` }));
  await a.online();
  const entryid = unwrap(await a.app.services.api.getSession(started.id)).entryid!;
  const onB = unwrap(await b.app.services.api.openSession(entryid));
  return { onA: started.id, onB: onB.id, entryid };
}

async function siteEntry(entryid: number): Promise<{
  status: string;
  userid: number;
  endtime: number | null;
  work_data: { field_guid: string; value: string; field_revisionid: number; label: string }[];
}> {
  const admin = await signIn(site, 'admin');
  return (await api(site, 'GET', `/work_log/${entryid}`, { token: admin.token })).body;
}

describe('two computers, one site', () => {
  it('both finish: the first finish stands, the second is already done, no conflict', async () => {
    const { onA, onB, entryid } = await sharedSession();
    a.offline();
    b.offline();
    unwrap(await a.app.services.api.transitionSession({ sessionId: onA, transition: 'finish' }));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    unwrap(await b.app.services.api.transitionSession({ sessionId: onB, transition: 'finish' }));
    await a.online();
    await b.online();
    const entry = await siteEntry(entryid);
    expect(entry.status).toBe('complete');
    expect(entry.endtime).toBe(unwrap(await a.app.services.api.getSession(onA)).endedAt);
    expect(unwrap(await b.app.services.api.getSession(onB))).toMatchObject({
      status: 'complete',
      endedAt: entry.endtime,
      openConflicts: 0,
    });
  });

  it('one takes over what the other suspended: the late one gets a conflict and the site state', async () => {
    const started = unwrap(await a.app.services.api.startSession({ guideid, workorderid: `WO-${++workorder}` }));
    unwrap(await a.app.services.api.transitionSession({ sessionId: started.id, transition: 'suspend' }));
    await a.online();
    const entryid = unwrap(await a.app.services.api.getSession(started.id)).entryid!;
    const suspended = unwrap(await tech2.app.services.api.listSuspended(guideid));
    expect(suspended.sessions.map((s) => s.entryid)).toContain(entryid);
    expect(suspended.unreadable).toBe(0);

    a.offline();
    unwrap(await a.app.services.api.transitionSession({ sessionId: started.id, transition: 'assume' }));
    const taken = unwrap(await tech2.app.services.api.assumeSession(entryid));
    await tech2.online();
    expect(unwrap(await tech2.app.services.api.getSession(taken.id))).toMatchObject({
      status: 'started',
      pendingActions: 0,
      openConflicts: 0,
    });
    await a.online();

    const entry = await siteEntry(entryid);
    expect(entry).toMatchObject({ status: 'started', userid: (await signIn(site, 'tech2')).userid });
    const conflicts = unwrap(await a.app.services.api.listConflicts());
    expect(conflicts).toContainEqual(
      expect.objectContaining({
        sessionId: started.id,
        kind: 'transition',
        theirs: expect.stringContaining(DEMO_ACCOUNTS.tech2.username),
      }),
    );
    expect(unwrap(await a.app.services.api.getSession(started.id))).toMatchObject({
      status: 'started',
      userid: entry.userid,
      openConflicts: 1,
    });
    const settled = conflicts.find((c) => c.sessionId === started.id)!;
    unwrap(await a.app.services.api.settleConflict({ conflictId: settled.id, keep: 'theirs' }));
  });

  it('both edit the same field: a conflict with mine, theirs and base; keeping mine puts it on the site', async () => {
    const { onA, onB, entryid } = await sharedSession();
    const { field, stepid } = fields.find(({ field }) => field.type === 'Text Input' || field.type === 'Text Area')!;
    a.offline();
    b.offline();
    unwrap(
      await a.app.services.api.saveStepData({
        sessionId: onA,
        stepid,
        values: [{ fieldGuid: field.fieldGuid, value: 'Measured by A' }],
      }),
    );
    unwrap(
      await b.app.services.api.saveStepData({
        sessionId: onB,
        stepid,
        values: [{ fieldGuid: field.fieldGuid, value: 'Measured by B' }],
      }),
    );
    await a.online();
    await b.online();
    const conflicts = unwrap(await b.app.services.api.listConflicts()).filter((c) => c.sessionId === onB);
    expect(conflicts).toEqual([
      expect.objectContaining({
        kind: 'field',
        fieldGuid: field.fieldGuid,
        mine: 'Measured by B',
        theirs: 'Measured by A',
        base: null,
        keepable: true,
        fieldType: field.type,
        offForm: false,
        step: { number: guide.steps.findIndex((s) => s.stepid === stepid) + 1, title: expect.any(String) },
      }),
    ]);
    expect((await siteEntry(entryid)).work_data.find((d) => d.field_guid === field.fieldGuid)?.value).toBe(
      'Measured by A',
    );
    // The step's field says it is in conflict, and what the site has.
    const onStep = unwrap(await b.app.services.api.getSession(onB)).values.find((v) => v.fieldGuid === field.fieldGuid);
    expect(onStep).toMatchObject({
      value: 'Measured by B',
      conflict: { id: conflicts[0]!.id, theirs: 'Measured by A', offForm: false },
    });

    unwrap(await b.app.services.api.settleConflict({ conflictId: conflicts[0]!.id, keep: 'mine' }));
    await b.online();
    expect((await siteEntry(entryid)).work_data.find((d) => d.field_guid === field.fieldGuid)?.value).toBe(
      'Measured by B',
    );
    expect(unwrap(await b.app.services.api.listConflicts()).filter((c) => c.sessionId === onB)).toEqual([]);
  });

  it("both edit the same field, the site's kept: the value still says what was saved here", async () => {
    // A walk: the office changed a note on the site while the technician, offline, wrote their own. Once the site's
    // was kept, the summary and the report showed the office's words as the session's, no trace of the technician's.
    const { onA, onB } = await sharedSession();
    const { field, stepid } = fields.find(({ field }) => field.type === 'Text Input' || field.type === 'Text Area')!;
    const save = (client: Client, sessionId: string, value: string) =>
      client.app.services.api.saveStepData({ sessionId, stepid, values: [{ fieldGuid: field.fieldGuid, value }] });
    a.offline();
    b.offline();
    unwrap(await save(a, onA, 'Office: tank replaced'));
    unwrap(await save(b, onB, 'Rust at the weld'));
    await a.online();
    await b.online();
    const card = unwrap(await b.app.services.api.listConflicts()).find((c) => c.sessionId === onB)!;
    unwrap(await b.app.services.api.settleConflict({ conflictId: card.id, keep: 'theirs' }));
    const kept = unwrap(await b.app.services.api.getSession(onB)).values.find((v) => v.fieldGuid === field.fieldGuid);
    expect(kept).toMatchObject({
      value: 'Office: tank replaced',
      conflict: null,
      changedElsewhere: { was: 'Rust at the weld', at: card.createdAt },
    });
  });

  it('a field conflict of a session then deleted on the site: Keep yours no longer offered, value kept', async () => {
    // A walk: the card still offered Keep yours, which the site could only refuse ("session is read-only");
    // closed as read, the session's value became the site's, though the site has the session no more.
    const { onA, onB, entryid } = await sharedSession();
    const { field, stepid } = fields.find(({ field }) => field.type === 'Text Input' || field.type === 'Text Area')!;
    a.offline();
    b.offline();
    const save = (client: Client, sessionId: string, value: string) =>
      client.app.services.api.saveStepData({ sessionId, stepid, values: [{ fieldGuid: field.fieldGuid, value }] });
    unwrap(await save(a, onA, 'Measured by A'));
    unwrap(await save(b, onB, 'Measured by B'));
    await a.online();
    await b.online();
    const [card] = unwrap(await b.app.services.api.listConflicts()).filter((c) => c.sessionId === onB);
    expect(card).toMatchObject({ kind: 'field', keepable: true });
    const admin = await signIn(site, 'admin');
    const { revisionid } = (await api(site, 'GET', `/work_log/${entryid}`, { token: admin.token })).body;
    const deleted = await api(site, 'DELETE', `/work_log/${entryid}`, { token: admin.token, query: { revisionid } });
    expect(deleted.status).toBe(204);
    unwrap(await b.app.services.api.transitionSession({ sessionId: onB, transition: 'pause' }));
    await b.online();
    expect(unwrap(await b.app.services.api.getSession(onB)).removedOnSite).toEqual(expect.any(Number));

    const cards = unwrap(await b.app.services.api.listConflicts()).filter((c) => c.sessionId === onB);
    expect(cards.find((c) => c.id === card!.id)).toMatchObject({ keepable: false, mine: 'Measured by B' });
    const refused = await b.app.services.api.settleConflict({ conflictId: card!.id, keep: 'mine' });
    expect(refused.ok ? null : refused.error.message).toMatch(/cannot be sent any more/);
    unwrap(await b.app.services.api.settleConflict({ conflictId: card!.id, keep: 'theirs' }));
    const value = unwrap(await b.app.services.api.getSession(onB)).values.find((v) => v.fieldGuid === field.fieldGuid);
    expect(value?.value).toBe('Measured by B');
  });

  it('both edit a field on each of two steps: two conflicts, the later step not overwritten', async () => {
    const { onA, onB, entryid } = await sharedSession();
    const first = fields.find(({ field }) => field.type === 'Text Input' || field.type === 'Numeric Input')!;
    const second = fields.find(
      ({ field, stepid }) => stepid !== first.stepid && (field.type === 'Text Input' || field.type === 'Text Area'),
    )!;
    a.offline();
    b.offline();
    for (const [client, session, variant] of [
      [a, onA, 5],
      [b, onB, 6],
    ] as const) {
      for (const { field, stepid } of [first, second]) {
        unwrap(
          await client.app.services.api.saveStepData({
            sessionId: session,
            stepid,
            values: [{ fieldGuid: field.fieldGuid, value: sampleValue(field, variant) }],
          }),
        );
      }
    }
    await a.online();
    await b.online();
    // B's first save is refused on a stale revision and merged; its second went on the revision the merge
    // took, unchecked: A's value of the second field was overwritten, with no conflict (before this change).
    const data = new Map((await siteEntry(entryid)).work_data.map((d) => [d.field_guid, d.value]));
    expect([data.get(first.field.fieldGuid), data.get(second.field.fieldGuid)]).toEqual([
      sampleValue(first.field, 5),
      sampleValue(second.field, 5),
    ]);
    const conflicts = unwrap(await b.app.services.api.listConflicts()).filter((c) => c.sessionId === onB);
    expect(conflicts.map((c) => [c.fieldGuid, c.stepid, c.mine, c.theirs]).sort()).toEqual(
      [
        [first.field.fieldGuid, first.stepid, sampleValue(first.field, 6), sampleValue(first.field, 5)],
        [second.field.fieldGuid, second.stepid, sampleValue(second.field, 6), sampleValue(second.field, 5)],
      ].sort(),
    );
    expect(unwrap(await b.app.services.api.getOutbox()).summary.pending).toBe(0);
  });

  it('they edit different fields: both values reach the site, no conflict', async () => {
    const { onA, onB, entryid } = await sharedSession();
    const [first, second] = fields;
    a.offline();
    b.offline();
    unwrap(
      await a.app.services.api.saveStepData({
        sessionId: onA,
        stepid: first!.stepid,
        values: [{ fieldGuid: first!.field.fieldGuid, value: sampleValue(first!.field, 2) }],
      }),
    );
    unwrap(
      await b.app.services.api.saveStepData({
        sessionId: onB,
        stepid: second!.stepid,
        values: [{ fieldGuid: second!.field.fieldGuid, value: sampleValue(second!.field, 3) }],
      }),
    );
    await a.online();
    await b.online();
    const data = new Map((await siteEntry(entryid)).work_data.map((d) => [d.field_guid, d.value]));
    expect(data.get(first!.field.fieldGuid)).toBe(sampleValue(first!.field, 2));
    expect(data.get(second!.field.fieldGuid)).toBe(sampleValue(second!.field, 3));
    expect(unwrap(await b.app.services.api.listConflicts()).filter((c) => c.sessionId === onB)).toEqual([]);
  });

  it(
    'the form is revised and a field renamed meanwhile: ' + 'values follow field_guid, a removed field is kept',
    async () => {
      const started = unwrap(await a.app.services.api.startSession({ guideid, workorderid: `WO-${++workorder}` }));
      await a.online();
      const step = guide.steps.find((s) => (s.form?.fields.filter((f) => sampleValue(f) !== null).length ?? 0) >= 2)!;
      const [kept, dropped] = step.form!.fields.filter((f) => sampleValue(f) !== null);
      a.offline();
      unwrap(
        await a.app.services.api.saveStepData({
          sessionId: started.id,
          stepid: step.stepid,
          values: [
            { fieldGuid: kept!.fieldGuid, value: sampleValue(kept!, 4) },
            { fieldGuid: dropped!.fieldGuid, value: sampleValue(dropped!, 5) },
          ],
        }),
      );
      const author = await signIn(site, 'author');
      const revised = step
        .form!.fields.filter((f) => f.fieldGuid !== dropped!.fieldGuid)
        .map((f) => ({
          field_guid: f.fieldGuid,
          field_type: f.type,
          label: f.fieldGuid === kept!.fieldGuid ? `${f.label} (renamed)` : f.label,
          ...(f.placeholder ? { placeholder: f.placeholder } : {}),
          ...(f.options.length ? { options: f.options } : {}),
        }));
      expect(
        (await api(site, 'POST', `/step_forms/${step.stepid}`, { token: author.token, json: { fields: revised } }))
          .status,
      ).toBe(201);

      // The library learns the revised form first; the outbox (retrying on its own timer) must not reach
      // the site before that, so the work log takes no change during this sync (the sync's look at the
      // technician's running sessions reads it).
      const writes = always({ kind: 'reset' });
      a.proxy.setSchedule(onPaths(/\/work_log/, (request) => (request.method === 'GET' ? PASS : writes(request))));
      expect(unwrap(await a.app.services.api.syncNow()).status).toBe('complete');
      await a.online();
      const session = unwrap(await a.app.services.api.getSession(started.id));
      const entry = await siteEntry(session.entryid!);
      const onSite = entry.work_data.find((d) => d.field_guid === kept!.fieldGuid)!;
      expect(onSite.value).toBe(sampleValue(kept!, 4));
      expect(onSite.label).toBe(`${kept!.label} (renamed)`);
      expect(onSite.field_revisionid).not.toBe(kept!.fieldRevisionid);
      expect(entry.work_data.find((d) => d.field_guid === dropped!.fieldGuid)).toBeUndefined();
      const removed = unwrap(await a.app.services.api.listConflicts()).find(
        (c) => c.sessionId === started.id && c.fieldGuid === dropped!.fieldGuid,
      );
      // Its value can only be copied: not offered to keep (before: Keep mine closed it and sent nothing).
      // Named by the field's label and its step as the session knew them (before: "Field removed from the
      // form", and no step), its type from that revision, and no site's value to show beside it.
      const stepIndex = guide.steps.findIndex((s) => s.stepid === step.stepid);
      expect(removed).toMatchObject({
        mine: sampleValue(dropped!, 5),
        label: dropped!.label,
        keepable: false,
        offForm: true,
        fieldType: dropped!.type,
        step: { number: stepIndex + 1, title: step.title },
        attachment: null,
      });
      // The step's value says it too, where the technician sees it.
      expect(
        unwrap(await a.app.services.api.getSession(started.id)).values.find((v) => v.fieldGuid === dropped!.fieldGuid)
          ?.conflict,
      ).toMatchObject({ id: removed!.id, theirs: null, offForm: true });
      // Understood: the card goes, and the value stays in the session (before: it was cleared, the site's "value").
      unwrap(await a.app.services.api.settleConflict({ conflictId: removed!.id, keep: 'theirs' }));
      const after = unwrap(await a.app.services.api.getSession(started.id)).values.find(
        (v) => v.fieldGuid === dropped!.fieldGuid,
      );
      expect([after?.value, after?.conflict]).toEqual([sampleValue(dropped!, 5), null]);
      // Never sent, and said so apart from a refused save (before: 'refused', "Not sent: refused or discarded").
      expect(after?.site).toBe('kept');
      expect(await a.app.services.api.settleConflict({ conflictId: removed!.id, keep: 'mine' })).toMatchObject({
        ok: false,
        error: { code: 'invalid_input' },
      });
      // The session keeps the revision it began on; the library moved on to the revised one.
      const pinned = unwrap(await a.app.services.api.getGuide(guideid, session.guideRevisionid));
      const latest = unwrap(await a.app.services.api.getGuide(guideid));
      expect(pinned.revisionid).toBe(session.guideRevisionid);
      expect(latest.revisionid).toBeGreaterThan(pinned.revisionid);
      const label = (g: typeof latest) =>
        g.steps.find((s) => s.stepid === step.stepid)!.form!.fields.find((f) => f.fieldGuid === kept!.fieldGuid)!.label;
      expect(label(pinned)).toBe(kept!.label);
      expect(label(latest)).toBe(`${kept!.label} (renamed)`);
    },
  );

  it('a finished session keeps the revision it was done on, once the guide is revised and read', async () => {
    // A computer of its own: no other session of it holds the revision.
    const c = await workshop.client('tech1');
    const started = unwrap(await c.app.services.api.startSession({ guideid, workorderid: `WO-${++workorder}` }));
    const begun = unwrap(await c.app.services.api.getGuide(guideid, started.guideRevisionid));
    const step = begun.steps.find((s) => s.form && s.form.fields.length > 0)!;
    unwrap(await c.app.services.api.transitionSession({ sessionId: started.id, transition: 'finish' }));
    await c.online();
    unwrap(await c.app.services.api.guideChanges(guideid));
    const author = await signIn(site, 'author');
    const fields = step.form!.fields.map((f) => ({
      field_guid: f.fieldGuid,
      field_type: f.type,
      label: `${f.label} (revised)`,
      ...(f.placeholder ? { placeholder: f.placeholder } : {}),
      ...(f.options.length ? { options: f.options } : {}),
    }));
    expect(
      (await api(site, 'POST', `/step_forms/${step.stepid}`, { token: author.token, json: { fields } })).status,
    ).toBe(201);
    expect(unwrap(await c.app.services.api.syncNow()).status).toBe('complete');
    unwrap(await c.app.services.api.guideChanges(guideid));
    unwrap(await c.app.services.api.seenGuideChanges(guideid));
    // Its report still reads that revision (before: the pin went with the end, and once the changes were
    // read the report showed the revised guide's steps and fields, the session's values dropped).
    const kept = unwrap(await c.app.services.api.getGuide(guideid, started.guideRevisionid));
    expect([kept.revisionid, kept.steps.find((s) => s.stepid === step.stepid)!.form!.fields[0]!.label]).toEqual([
      started.guideRevisionid,
      step.form!.fields[0]!.label,
    ]);
    expect(unwrap(await c.app.services.api.getGuide(guideid)).revisionid).toBeGreaterThan(started.guideRevisionid);
  });

  it('a photo on a field the revised form drops: its card names the field and step and keeps the file', async () => {
    const c = await workshop.client('tech1');
    const author = await signIn(site, 'author');
    const formOf = (f: StepFormField) => ({
      field_guid: f.fieldGuid,
      field_type: f.type,
      label: f.label,
      ...(f.placeholder ? { placeholder: f.placeholder } : {}),
      ...(f.options.length ? { options: f.options } : {}),
    });
    const current = unwrap(await c.app.services.api.getGuide(guideid));
    const index = current.steps.findIndex((s) => s.form && s.form.fields.length > 0);
    const step = current.steps[index]!;
    const photo = { field_type: 'Image', label: 'Photo of the gauge' };
    const post = async (fields: unknown[]) =>
      expect(
        (await api(site, 'POST', `/step_forms/${step.stepid}`, { token: author.token, json: { fields } })).status,
      ).toBe(201);
    // The step's form gets a photo field; the session begins on that revision.
    await post([...step.form!.fields.map(formOf), photo]);
    expect(unwrap(await c.app.services.api.syncNow()).status).toBe('complete');
    const started = unwrap(await c.app.services.api.startSession({ guideid, workorderid: `WO-${++workorder}` }));
    await c.online();
    const begun = unwrap(await c.app.services.api.getGuide(guideid, started.guideRevisionid));
    const field = begun.steps[index]!.form!.fields.find((f) => f.type === 'Image')!;
    expect(field.label).toBe(photo.label);
    c.offline();
    const bytes = encodePng(createCanvas(32, 24, [200, 90, 40]));
    const input = { sessionId: started.id, stepid: step.stepid, fieldGuid: field.fieldGuid, name: 'gauge.png' };
    unwrap(await c.app.services.api.attachFile({ ...input, mime: 'image/png', dataBase64: bytes.toString('base64') }));
    // The site's form drops it again before the work reaches the site.
    await post(step.form!.fields.map(formOf));
    c.proxy.setSchedule(onPaths(/\/work_log|\/user\/media/, always({ kind: 'reset' })));
    expect(unwrap(await c.app.services.api.syncNow()).status).toBe('complete');
    await c.online();
    const card = unwrap(await c.app.services.api.listConflicts()).find(
      (x) => x.sessionId === started.id && x.fieldGuid === field.fieldGuid,
    );
    // Before: label "Field removed from the form", value null ("(empty)"), no file, no step.
    expect(card).toMatchObject({
      label: photo.label,
      mine: null,
      offForm: true,
      keepable: false,
      fieldType: 'Image',
      step: { number: index + 1, title: step.title },
      attachment: { name: 'gauge.png', mime: 'image/png' },
    });
    const kept = unwrap(await c.app.services.api.getAttachment(card!.attachment!.id));
    expect(Buffer.from(kept.dataBase64, 'base64').equals(bytes)).toBe(true);
    const value = unwrap(await c.app.services.api.getSession(started.id)).values.find(
      (v) => v.fieldGuid === field.fieldGuid,
    );
    expect(value).toMatchObject({ site: 'kept', conflict: { id: card!.id, offForm: true } });
  });

  it('both change a photo: the card shows mine as the photo, and Keep mine puts it on the site', async () => {
    const author = await signIn(site, 'author');
    const current = unwrap(await a.app.services.api.getGuide(guideid));
    const index = current.steps.findIndex((s) => s.form && s.form.fields.length > 0);
    const step = current.steps[index]!;
    const fields = [
      ...step.form!.fields.map((f) => ({
        field_guid: f.fieldGuid,
        field_type: f.type,
        label: f.label,
        ...(f.placeholder ? { placeholder: f.placeholder } : {}),
        ...(f.options.length ? { options: f.options } : {}),
      })),
      { field_type: 'Image', label: 'Photo of the plate' },
    ];
    const posted = await api(site, 'POST', `/step_forms/${step.stepid}`, { token: author.token, json: { fields } });
    expect(posted.status).toBe(201);
    for (const c of [a, b]) expect(unwrap(await c.app.services.api.syncNow()).status).toBe('complete');
    const { onA, onB, entryid } = await sharedSession();
    const field = unwrap(await a.app.services.api.getGuide(guideid)).steps[index]!.form!.fields.find(
      (f) => f.type === 'Image',
    )!;
    const photo = (shade: number) => ({
      stepid: step.stepid,
      fieldGuid: field.fieldGuid,
      name: `plate-${shade}.png`,
      mime: 'image/png',
      dataBase64: encodePng(createCanvas(16, 12, [shade, 80, 80])).toString('base64'),
    });
    unwrap(await a.app.services.api.attachFile({ sessionId: onA, ...photo(40) }));
    await a.online();
    const siteValue = async () =>
      (await siteEntry(entryid)).work_data.find((d) => d.field_guid === field.fieldGuid)?.value;
    const fromA = await siteValue();
    unwrap(await b.app.services.api.attachFile({ sessionId: onB, ...photo(200) }));
    await b.online();
    const card = unwrap(await b.app.services.api.listConflicts()).find((c) => c.sessionId === onB)!;
    expect(card).toMatchObject({ keepable: true, fieldType: 'Image', attachment: { name: 'plate-200.png' } });
    expect(await siteValue()).toBe(fromA);
    // Before: refused, "Photo of the plate: attach a file instead".
    unwrap(await b.app.services.api.settleConflict({ conflictId: card.id, keep: 'mine' }));
    await b.online();
    const mine = await siteValue();
    expect(mine).not.toBe(fromA);
    expect(mine).toMatch(/^\d+$/);
    const value = unwrap(await b.app.services.api.getSession(onB)).values.find((v) => v.fieldGuid === field.fieldGuid);
    expect(value).toMatchObject({
      site: 'sent',
      conflict: null,
      attachment: { name: 'plate-200.png', uploaded: true },
    });

    // The other computer changes it too, and keeps the site's: its step no longer shows its own photo as the one
    // on the site (before: "Uploaded", its photo beside the site's value).
    unwrap(await a.app.services.api.attachFile({ sessionId: onA, ...photo(120) }));
    await a.online();
    const other = unwrap(await a.app.services.api.listConflicts()).find((c) => c.sessionId === onA)!;
    expect(other).toMatchObject({ attachment: { name: 'plate-120.png' }, theirs: mine });
    unwrap(await a.app.services.api.settleConflict({ conflictId: other.id, keep: 'theirs' }));
    const kept = unwrap(await a.app.services.api.getSession(onA)).values.find((v) => v.fieldGuid === field.fieldGuid);
    expect(kept).toMatchObject({ value: mine, attachment: null, site: 'sent', conflict: null });
    expect(await siteValue()).toBe(mine);
  });

  it('learns an office change on another step a save or a pause meets; checks saves queued behind', async () => {
    const started = unwrap(await a.app.services.api.startSession({ guideid, workorderid: `WO-${++workorder}` }));
    await a.online();
    const entryid = unwrap(await a.app.services.api.getSession(started.id)).entryid!;
    const current = unwrap(await a.app.services.api.getGuide(guideid, started.guideRevisionid));
    const onForm = current.steps.flatMap((st) =>
      (st.form?.fields ?? []).map((field) => ({ field, stepid: st.stepid })),
    );
    const text = onForm.filter(({ field }) => ['Text Input', 'Text Area', 'Numeric Input'].includes(field.type));
    const mine = text[0]!;
    const office = text.find((f) => f.stepid !== mine.stepid)!;
    const officeSavesHere = (value: string) =>
      officeSaves(site, { entryid, guideid }, { fieldGuid: office.field.fieldGuid, stepid: office.stepid }, value);
    const [x, y, z] = [1, 2, 3].map((v) => sampleValue(office.field, v)!) as [string, string, string];
    const onSite = async () =>
      (await siteEntry(entryid)).work_data.find((d) => d.field_guid === office.field.fieldGuid)?.value;
    const here = async () =>
      unwrap(await a.app.services.api.getSession(started.id)).values.find(
        (v) => v.fieldGuid === office.field.fieldGuid,
      );

    // The office fills a field of another step; this computer's save of its own step meets that revision.
    await officeSavesHere(x);
    unwrap(
      await a.app.services.api.saveStepData({
        sessionId: started.id,
        stepid: mine.stepid,
        values: [{ fieldGuid: mine.field.fieldGuid, value: sampleValue(mine.field, 1) }],
      }),
    );
    await a.online();
    // Learned (before: not known here, the step showed it empty, and a value typed there overwrote it).
    expect(await here()).toMatchObject({ value: x, site: 'sent' });

    // The office changes it again; offline, the technician pauses, then changes it too: the pause meets the
    // office's revision, and the save queued behind it is checked against it (before: it went unchecked).
    await officeSavesHere(y);
    a.offline();
    unwrap(await a.app.services.api.transitionSession({ sessionId: started.id, transition: 'pause' }));
    unwrap(
      await a.app.services.api.saveStepData({
        sessionId: started.id,
        stepid: office.stepid,
        values: [{ fieldGuid: office.field.fieldGuid, value: z }],
      }),
    );
    await a.online();
    expect(await onSite()).toBe(y);
    const card = unwrap(await a.app.services.api.listConflicts()).find(
      (c) => c.sessionId === started.id && c.fieldGuid === office.field.fieldGuid,
    );
    expect(card).toMatchObject({ mine: z, theirs: y, base: x, keepable: true });
  });

  it('keep yours, and the site changes it again before it gets there: the card says so', async () => {
    const { onA, onB, entryid } = await sharedSession();
    const { field, stepid } = fields.find(({ field }) => field.type === 'Text Input' || field.type === 'Text Area')!;
    const save = async (c: Client, sessionId: string, value: string) =>
      unwrap(
        await c.app.services.api.saveStepData({ sessionId, stepid, values: [{ fieldGuid: field.fieldGuid, value }] }),
      );
    a.offline();
    b.offline();
    await save(a, onA, 'A first');
    await save(b, onB, 'B mine');
    await a.online();
    await b.online();
    const first = unwrap(await b.app.services.api.listConflicts()).find((c) => c.sessionId === onB)!;
    expect(first.message).toBe('This field was changed here and on the site to different values.');
    b.offline();
    unwrap(await b.app.services.api.settleConflict({ conflictId: first.id, keep: 'mine' }));
    await save(a, onA, 'A again');
    await a.online();
    await b.online();
    const again = unwrap(await b.app.services.api.listConflicts()).find((c) => c.sessionId === onB)!;
    // Before: the same words as the first card, as if "Keep yours" had done nothing.
    expect(again).toMatchObject({
      mine: 'B mine',
      theirs: 'A again',
      message:
        "You kept yours, but the site's value changed again before it got there: decide again with what it has now.",
    });
    // Kept again, and it reaches the site; a later change on both sides is a new disagreement, said as one.
    unwrap(await b.app.services.api.settleConflict({ conflictId: again.id, keep: 'mine' }));
    await b.online();
    // The office, on the site itself, then this computer.
    await officeSaves(site, { entryid, guideid }, { fieldGuid: field.fieldGuid, stepid }, 'A third');
    await save(b, onB, 'B second');
    await b.online();
    const later = unwrap(await b.app.services.api.listConflicts()).find((c) => c.sessionId === onB)!;
    expect(later).toMatchObject({
      theirs: 'A third',
      message: 'This field was changed here and on the site to different values.',
    });
  });
});
