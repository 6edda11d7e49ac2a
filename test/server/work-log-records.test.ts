import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import type { DemoAccountName } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { invalidTransitionBody, workLogEntry, workLogList } from './content-schemas.ts';
import { api, expectError, expectShape, signInAll, startTestSite, type SignedIn } from './helpers.ts';
import { checkMoreResults, checkPaging } from './paging-checks.ts';

const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;
const BELT = id('compressor-belt');

let site: RunningSite;
let who: Record<DemoAccountName, SignedIn>;
let forms: {
  stepid: number;
  fields: { field_revisionid: number; field_guid: string; field_type: string; label: string }[];
}[];
beforeAll(async () => {
  site = await startTestSite({ demo: true });
  who = await signInAll(site);
  forms = (await api(site, 'GET', `/step_forms/guideid/${BELT}`)).body;
});
afterAll(() => site.close());

const field = (type: string) =>
  forms.flatMap((form) => form.fields.map((f) => ({ ...f, stepid: form.stepid }))).find((f) => f.field_type === type)!;
type Entry = z.infer<typeof workLogEntry>;

async function start(as: DemoAccountName = 'tech1', json: Record<string, unknown> = {}): Promise<Entry> {
  const answer = await api(site, 'POST', '/work_log', {
    token: who[as].token,
    json: { guideid: BELT, workorderid: 'WO-7', ...json },
  });
  expect(answer.status, answer.text).toBe(201);
  return expectShape(workLogEntry, answer.body);
}

const saveData = (entry: Entry, json: unknown, as: DemoAccountName = 'tech1') =>
  api(site, 'PUT', `/work_log/${entry.entryid}/stepData`, {
    token: who[as].token,
    query: { revisionid: entry.revisionid },
    json,
  });

describe('POST /work_log', () => {
  it('starts an entry for the current user, pinned to the guide and form revisions', async () => {
    const guide = (await api(site, 'GET', `/guides/${BELT}`)).body;
    const entry = await start('tech1', { workorderid: 4711 });
    expect(entry).toMatchObject({
      guideid: BELT,
      userid: who.tech1.userid,
      workorderid: '4711',
      endtime: null,
      status: 'started',
      revisionid: 1,
      cancelled: 0,
      duration: 0,
      work_data: [],
      timingid: null,
      guide_revisionid: guide.revisionid,
      max_form_revisionid: Math.max(...forms.map((f) => (f as unknown as { form_revisionid: number }).form_revisionid)),
    });
  });

  it('needs a user, a guide they can view and a work order', async () => {
    expectError(await api(site, 'POST', '/work_log', { json: { guideid: BELT, workorderid: 'x' } }), 401);
    expectError(
      await api(site, 'POST', '/work_log', { token: who.tech1.token, json: { workorderid: 'x' } }),
      422,
      'guideid',
      'missing_field',
    );
    expectError(
      await api(site, 'POST', '/work_log', { token: who.tech1.token, json: { guideid: BELT } }),
      422,
      'workorderid',
      'missing_field',
    );
    expectError(
      await api(site, 'POST', '/work_log', { token: who.tech1.token, json: { guideid: BELT, workorderid: '' } }),
      422,
      'workorderid',
    );
    expectError(
      await api(site, 'POST', '/work_log', { token: who.tech1.token, json: { guideid: 999999, workorderid: 'x' } }),
      422,
      'guideid',
      'invalid_value',
    );
    expectError(
      await api(site, 'POST', '/work_log', {
        token: who.tech1.token,
        json: { guideid: id('mig-setup'), workorderid: 'x' },
      }),
      403,
    );
    // A step of another guide (not one of its prerequisites, whose steps a session goes through first).
    const foreign = (await api(site, 'GET', `/guides/${id('forklift-inspection')}`)).body.steps[0].stepid;
    const json = { guideid: BELT, workorderid: 'x', stepid: foreign };
    expectError(await api(site, 'POST', '/work_log', { token: who.tech1.token, json }), 422, 'stepid');
    const bad = await api(site, 'POST', '/work_log', {
      token: who.tech1.token,
      body: '{guideid',
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(bad, 400);
  });
});

describe('PUT /work_log/{entryid}/stepData', () => {
  it('stores every value as a string, checkboxes as 1 and 0, and follows the active step', async () => {
    let entry = await start();
    const text = field('Text Input');
    const number = field('Numeric Input');
    const box = field('Checkbox');
    const answer = await saveData(entry, {
      fields: { [text.field_revisionid]: 'AX51', [number.field_revisionid]: 12.5, [box.field_revisionid]: true },
      lasttimingid: null,
    });
    expect(answer.status, answer.text).toBe(200);
    entry = expectShape(workLogEntry, answer.body);
    expect(entry.revisionid).toBe(2);
    expect(entry.timingid).not.toBeNull();
    expect(entry.active_stepid).toBe(box.stepid);
    const values = Object.fromEntries(entry.work_data.map((d) => [d.field_revisionid, d]));
    expect(values[text.field_revisionid]).toEqual({
      label: text.label,
      value: 'AX51',
      field_revisionid: text.field_revisionid,
      field_guid: text.field_guid,
      stepid: text.stepid,
    });
    expect(values[number.field_revisionid]!.value).toBe('12.5');
    expect(values[box.field_revisionid]!.value).toBe('1');

    entry = (
      await saveData(entry, {
        fields: { [box.field_revisionid]: false },
        stepid: text.stepid,
        lasttimingid: entry.timingid,
      })
    ).body;
    expect(entry.work_data.find((d) => d.field_revisionid === box.field_revisionid)!.value).toBe('0');
    expect(entry.active_stepid).toBe(text.stepid);
    entry = (await saveData(entry, { fields: { [text.field_revisionid]: null } })).body;
    expect(entry.work_data.map((d) => d.field_revisionid).sort()).toEqual(
      [number.field_revisionid, box.field_revisionid].sort(),
    );
  });

  it('refuses unknown fields and values that do not fit the field, naming them', async () => {
    const entry = await start();
    expectError(await saveData(entry, { fields: { 999999: 'x' } }), 422, 'fields.999999', 'unknown_field');
    const other = (await api(site, 'GET', `/step_forms/guideid/${id('forklift-inspection')}`)).body[0].fields[0]
      .field_revisionid;
    expectError(await saveData(entry, { fields: { [other]: 'x' } }), 422, `fields.${other}`, 'unknown_field');
    expectError(
      await saveData(entry, { fields: { [field('Numeric Input').field_revisionid]: 'twelve' } }),
      422,
      `fields.${field('Numeric Input').field_revisionid}`,
      'invalid_value',
    );
    expectError(
      await saveData(entry, { fields: { [field('Text Input').field_revisionid]: 'two\nlines' } }),
      422,
      `fields.${field('Text Input').field_revisionid}`,
    );
    expectError(
      await saveData(entry, { fields: { [field('Checkbox').field_revisionid]: 'yes' } }),
      422,
      `fields.${field('Checkbox').field_revisionid}`,
    );
    expectError(await saveData(entry, { fields: [] }), 422, 'fields');
    const foreign = (await api(site, 'GET', `/guides/${id('forklift-inspection')}`)).body.steps[0].stepid;
    expectError(await saveData(entry, { stepid: foreign }), 422, 'stepid');
    expect((await api(site, 'GET', `/work_log/${entry.entryid}`, { token: who.tech1.token })).body.revisionid).toBe(1);
  });

  it("takes values for the forms of the guide's prerequisites, whose steps a session goes through first", async () => {
    const hose = id('forklift-hose');
    const inspection: typeof forms = (await api(site, 'GET', `/step_forms/guideid/${id('forklift-inspection')}`)).body;
    const fields = inspection.flatMap((f) => f.fields.map((x) => ({ ...x, stepid: f.stepid })));
    const checkbox = fields.find((f) => f.field_type === 'Checkbox')!;
    const json = { guideid: hose, workorderid: 'WO-P', stepid: checkbox.stepid };
    const entry = (await api(site, 'POST', '/work_log', { token: who.tech1.token, json })).body as Entry;
    expect(entry.active_stepid).toBe(checkbox.stepid);
    const saved = await saveData(entry, { stepid: checkbox.stepid, fields: { [checkbox.field_revisionid]: '1' } });
    expect(saved.status, saved.text).toBe(200);
    const { field_revisionid, stepid } = checkbox;
    expect(saved.body.work_data).toEqual([expect.objectContaining({ field_revisionid, stepid, value: '1' })]);
  });

  it('checks Radios and Select options', async () => {
    const drain = (await api(site, 'GET', `/step_forms/guideid/${id('compressor-drain')}`)).body as typeof forms;
    const radios = drain.flatMap((f) => f.fields).find((f) => f.field_type === 'Radios')!;
    const entry = (
      await api(site, 'POST', '/work_log', {
        token: who.tech1.token,
        json: { guideid: id('compressor-drain'), workorderid: 'WO-9' },
      })
    ).body;
    expectError(
      await saveData(entry, { fields: { [radios.field_revisionid]: 'Purple' } }),
      422,
      `fields.${radios.field_revisionid}`,
    );
    expect((await saveData(entry, { fields: { [radios.field_revisionid]: 'Rusty' } })).body.work_data[0].value).toBe(
      'Rusty',
    );
  });

  it('is allowed while paused (the step becomes active on resume), not once ended or suspended', async () => {
    let entry = await start();
    entry = (
      await api(site, 'POST', `/work_log/${entry.entryid}/pause`, {
        token: who.tech1.token,
        query: { revisionid: entry.revisionid },
      })
    ).body;
    const box = field('Checkbox');
    entry = (await saveData(entry, { fields: { [box.field_revisionid]: true } })).body;
    expect(entry).toMatchObject({ status: 'paused', active_stepid: null });
    entry = (
      await api(site, 'POST', `/work_log/${entry.entryid}/resume`, {
        token: who.tech1.token,
        query: { revisionid: entry.revisionid },
      })
    ).body;
    expect(entry.active_stepid).toBe(box.stepid);
    entry = (
      await api(site, 'POST', `/work_log/${entry.entryid}/finish`, {
        token: who.tech1.token,
        query: { revisionid: entry.revisionid },
      })
    ).body;
    const refused = await saveData(entry, { fields: { [box.field_revisionid]: false } });
    expect(refused.status).toBe(422);
    expect(expectShape(invalidTransitionBody, refused.body).entry).toEqual(entry);
    expectError(await saveData(entry, { fields: {} }, 'tech2'), 403);
  });

  it('keeps one value per field_guid across form revisions', async () => {
    let entry = await start();
    const text = field('Text Input');
    entry = (await saveData(entry, { fields: { [text.field_revisionid]: 'A51' } })).body;
    const revised = await api(site, 'POST', `/step_forms/${text.stepid}`, {
      token: who.author.token,
      json: { fields: [{ field_guid: text.field_guid, field_type: 'Text Input', label: 'Old belt part number' }] },
    });
    const newRevision = revised.body.fields[0].field_revisionid;
    entry = (await saveData(entry, { fields: { [newRevision]: 'AX51' } })).body;
    const values = entry.work_data.filter((d) => d.field_guid === text.field_guid);
    expect(values).toEqual([
      {
        label: 'Old belt part number',
        value: 'AX51',
        field_revisionid: newRevision,
        field_guid: text.field_guid,
        stepid: text.stepid,
      },
    ]);
  });
});

describe('reading the work log', () => {
  it("GET /work_log lists the caller's entries, filtered, paged and ordered", async () => {
    const mine = await Promise.all([0, 1, 2].map(() => start('tech2', { workorderid: 'WO-list' })));
    const answer = await api(site, 'GET', '/work_log', { token: who.tech2.token, query: { workorderid: 'WO-list' } });
    const list = expectShape(workLogList, answer.body);
    expect(list.results.map((e) => e.entryid)).toEqual(mine.map((e) => e.entryid).sort((a, b) => a - b));
    const all = (await api(site, 'GET', '/work_log', { token: who.tech2.token, query: { limit: 200 } }))
      .body as z.infer<typeof workLogList>;
    expect(all.results.every((e) => e.userid === who.tech2.userid)).toBe(true);
    const get = (query: Record<string, string | number | undefined>) =>
      api(site, 'GET', '/work_log', { token: who.tech2.token, query });
    await checkPaging(get, { items: (body) => body.results, key: (e: Entry) => e.entryid, total: all.totalResults });
    await checkMoreResults(get, all.totalResults);
    const byGuide = await api(site, 'GET', '/work_log', {
      token: who.tech2.token,
      query: { guideid: BELT, status: 'suspended' },
    });
    expect(byGuide.body.results.map((e: Entry) => e.workorderid)).toEqual(['WO-24021']);
    expectError(
      await api(site, 'GET', '/work_log', { token: who.tech2.token, query: { status: 'sleeping' } }),
      422,
      'status',
    );
  });

  it("shows other people's entries to admins only", async () => {
    expectError(await api(site, 'GET', '/work_log'), 401);
    expectError(
      await api(site, 'GET', '/work_log', { token: who.tech1.token, query: { userid: who.tech2.userid } }),
      403,
    );
    const admin = await api(site, 'GET', '/work_log', {
      token: who.admin.token,
      query: { userid: who.tech2.userid, limit: 200 },
    });
    expect(admin.body.results.length).toBeGreaterThanOrEqual(4);
    const everyone = await api(site, 'GET', '/work_log', { token: who.admin.token, query: { limit: 200 } });
    expect(new Set(everyone.body.results.map((e: Entry) => e.userid)).size).toBeGreaterThanOrEqual(2);
  });

  it('status=suspended, no userid: every suspended entry a non-admin could assume, and when it began', async () => {
    const answer = await api(site, 'GET', '/work_log', { token: who.tech1.token, query: { status: 'suspended' } });
    const results = expectShape(z.object({ results: z.array(workLogEntry) }), answer.body).results;
    expect(results.every((e) => e.status === 'suspended' && e.paused_at !== null)).toBe(true);
    expect(results.find((e) => e.workorderid === 'WO-24021')).toMatchObject({ userid: who.tech2.userid });
    // A private guide's suspended entries stay hidden from those who cannot view it.
    const hidden = await start('admin', { guideid: id('mig-setup') });
    const suspend = await api(site, 'POST', `/work_log/${hidden.entryid}/suspend`, {
      token: who.admin.token,
      query: { revisionid: hidden.revisionid },
      json: {},
    });
    expect(suspend.status, suspend.text).toBe(200);
    const again = await api(site, 'GET', '/work_log', { token: who.tech1.token, query: { status: 'suspended' } });
    expect(again.body.results.map((e: Entry) => e.entryid)).not.toContain(hidden.entryid);
    const admin = await api(site, 'GET', '/work_log', { token: who.admin.token, query: { status: 'suspended' } });
    expect(admin.body.results.map((e: Entry) => e.entryid)).toContain(hidden.entryid);
    expect(again.body.totalResults).toBe(again.body.results.length);
  });

  it('GET /work_log/{entryid}: the owner, an admin, or anyone who may assume a suspended entry', async () => {
    const entry = await start();
    expect((await api(site, 'GET', `/work_log/${entry.entryid}`, { token: who.tech1.token })).body).toEqual(entry);
    expect((await api(site, 'GET', `/work_log/${entry.entryid}`, { token: who.admin.token })).status).toBe(200);
    expectError(await api(site, 'GET', `/work_log/${entry.entryid}`, { token: who.tech2.token }), 403);
    expectError(await api(site, 'GET', '/work_log/999999', { token: who.tech1.token }), 404);
    const suspended = (await api(site, 'GET', `/work_log/${BELT}/suspended`, { token: who.tech1.token })).body
      .results[0];
    expect((await api(site, 'GET', `/work_log/${suspended.entryid}`, { token: who.tech1.token })).status).toBe(200);
  });

  it('GET /work_log/{guideid}/suspended lists the suspended entries of a guide the caller can view', async () => {
    const answer = await api(site, 'GET', `/work_log/${BELT}/suspended`, { token: who.tech1.token });
    const body = expectShape(z.object({ results: z.array(workLogEntry) }), answer.body);
    expect(body.results.every((e) => e.status === 'suspended' && e.guideid === BELT)).toBe(true);
    expect(body.results.find((e) => e.workorderid === 'WO-24021')).toMatchObject({
      userid: who.tech2.userid,
      work_data: [{ value: 'AX51' }],
    });
    expectError(await api(site, 'GET', `/work_log/${BELT}/suspended`), 401);
    expectError(await api(site, 'GET', '/work_log/999999/suspended', { token: who.tech1.token }), 404);
    expectError(await api(site, 'GET', `/work_log/${id('mig-setup')}/suspended`, { token: who.tech1.token }), 403);
  });
});

describe('DELETE /work_log/{entryid}', () => {
  it('removes the entry and its data, for its owner', async () => {
    let entry = await start();
    entry = (await saveData(entry, { fields: { [field('Checkbox').field_revisionid]: true } })).body;
    expectError(await api(site, 'DELETE', `/work_log/${entry.entryid}`, { token: who.tech2.token }), 403);
    const answer = await api(site, 'DELETE', `/work_log/${entry.entryid}`, {
      token: who.tech1.token,
      query: { revisionid: entry.revisionid },
    });
    expect(answer.status).toBe(204);
    expectError(await api(site, 'GET', `/work_log/${entry.entryid}`, { token: who.tech1.token }), 404);
    const left = site.db.prepare('SELECT COUNT(*) AS n FROM work_log_data WHERE entryid = ?').get(entry.entryid) as {
      n: number;
    };
    expect(left.n).toBe(0);
    expectError(await api(site, 'DELETE', `/work_log/${entry.entryid}`, { token: who.tech1.token }), 404);
  });
});
