import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import type { DemoAccountName } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { FIELD_TYPES, stepForm } from './content-schemas.ts';
import { api, call, expectError, expectShape, signInAll, startTestSite, type SignedIn } from './helpers.ts';

const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;

let site: RunningSite;
let who: Record<DemoAccountName, SignedIn>;
let beltSteps: number[];
beforeAll(async () => {
  site = await startTestSite({ demo: true });
  who = await signInAll(site);
  beltSteps = (await api(site, 'GET', `/guides/${id('compressor-belt')}`)).body.steps.map(
    (s: { stepid: number }) => s.stepid,
  );
});
afterAll(() => site.close());

describe('GET /step_forms/...', () => {
  it('answers a step form by stepid, form_revisionid and any of its field_revisionids', async () => {
    const byStep = expectShape(stepForm, (await api(site, 'GET', `/step_forms/stepid/${beltSteps[2]}`)).body);
    expect(byStep.fields.map((f) => [f.field_type, f.label])).toEqual([
      ['Text Input', 'Part number printed on the old belt'],
    ]);
    expect(byStep.fields[0]!.field_guid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect((await api(site, 'GET', `/step_forms/form_revisionid/${byStep.form_revisionid}`)).body).toEqual(byStep);
    expect((await api(site, 'GET', `/step_forms/field_revisionid/${byStep.fields[0]!.field_revisionid}`)).body).toEqual(
      byStep,
    );
    const inspection = (await api(site, 'GET', `/guides/${id('forklift-inspection')}`)).body.steps[0].stepid;
    const two = expectShape(stepForm, (await api(site, 'GET', `/step_forms/stepid/${inspection}`)).body);
    expect(two.fields).toHaveLength(2);
    for (const field of two.fields) {
      expect((await api(site, 'GET', `/step_forms/field_revisionid/${field.field_revisionid}`)).body).toEqual(two);
    }
  });

  it('is 404 for unknown ids and steps without a form', async () => {
    expectError(await api(site, 'GET', `/step_forms/stepid/${beltSteps[0]}`), 404);
    expectError(await api(site, 'GET', '/step_forms/stepid/999999'), 404);
    expectError(await api(site, 'GET', '/step_forms/form_revisionid/999999'), 404);
    expectError(await api(site, 'GET', '/step_forms/field_revisionid/nope'), 404);
    expectError(await api(site, 'GET', '/step_forms/guideid/999999'), 404);
  });

  it('lists the forms of a guide and of its prerequisites', async () => {
    const belt = expectShape(
      z.array(stepForm),
      (await api(site, 'GET', `/step_forms/guideid/${id('compressor-belt')}`)).body,
    );
    expect(belt.map((f) => f.stepid).sort((a, b) => a - b)).toEqual([beltSteps[2], beltSteps[7], beltSteps[8]]);
    const hose = expectShape(
      z.array(stepForm),
      (await api(site, 'GET', `/step_forms/guideid/${id('forklift-hose')}`)).body,
    );
    expect(new Set(hose.map((f) => f.guideid))).toEqual(new Set([id('forklift-inspection')]));
    expect((await api(site, 'GET', `/step_forms/guideid/${id('lockout')}`)).body).toEqual([]);
  });

  it('uses all nine field types across the demo guides', async () => {
    const types = new Set<string>();
    for (let guideid = 1; guideid <= DEMO_GUIDES.length; guideid++) {
      const forms = (await api(site, 'GET', `/step_forms/guideid/${guideid}`, { token: who.admin.token })).body as {
        fields: { field_type: string }[];
      }[];
      for (const form of forms) for (const field of form.fields) types.add(field.field_type);
    }
    expect([...types].sort()).toEqual([...FIELD_TYPES].sort());
  });
});

describe('POST /step_forms/{stepid}', () => {
  it('needs someone who may edit the guide, and a valid form', async () => {
    const stepid = beltSteps[7];
    const form = { fields: [{ field_type: 'Text Input', label: 'x' }] };
    expectError(await api(site, 'POST', `/step_forms/${stepid}`, { json: form }), 401);
    expectError(await api(site, 'POST', `/step_forms/${stepid}`, { token: who.tech1.token, json: form }), 403);
    expectError(await api(site, 'POST', '/step_forms/999999', { token: who.author.token, json: form }), 404);
    expectError(
      await api(site, 'POST', `/step_forms/${stepid}`, { token: who.author.token, json: {} }),
      422,
      'fields',
      'missing_field',
    );
    expectError(
      await api(site, 'POST', `/step_forms/${stepid}`, {
        token: who.author.token,
        json: { fields: [{ field_type: 'Slider', label: 'x' }] },
      }),
      422,
      'fields[0].field_type',
    );
    expectError(
      await api(site, 'POST', `/step_forms/${stepid}`, {
        token: who.author.token,
        json: { fields: [{ field_type: 'Radios', label: 'x' }] },
      }),
      422,
      'fields[0].options',
    );
    expectError(
      await api(site, 'POST', `/step_forms/${stepid}`, {
        token: who.author.token,
        json: { fields: [{ field_type: 'Text Input' }] },
      }),
      422,
      'fields[0].label',
      'missing_field',
    );
    expectError(
      await api(site, 'POST', `/step_forms/${stepid}`, {
        token: who.author.token,
        json: { fields: [{ field_type: 'Text Input', label: 'x', field_guid: 'not-here' }] },
      }),
      422,
      'fields[0].field_guid',
    );
  });

  it('saves a new form revision: kept fields keep their field_guid and get a new field_revisionid', async () => {
    const stepid = beltSteps[7];
    const before = (await api(site, 'GET', `/step_forms/stepid/${stepid}`)).body;
    const guideBefore = (await api(site, 'GET', `/guides/${id('compressor-belt')}`)).body;
    const [old] = before.fields;
    const answer = await api(site, 'POST', `/step_forms/${stepid}`, {
      token: who.author.token,
      json: {
        fields: [
          { field_guid: old.field_guid, field_type: 'Numeric Input', label: 'Belt deflection (mm)', placeholder: '13' },
          { field_type: 'Select', label: 'Tension gauge used', options: ['Spring scale', 'Gauge'] },
        ],
      },
    });
    expect(answer.status, answer.text).toBe(201);
    const after = expectShape(stepForm, answer.body);
    expect(after.form_revisionid).toBeGreaterThan(before.form_revisionid);
    expect(after.fields[0]).toMatchObject({
      field_guid: old.field_guid,
      label: 'Belt deflection (mm)',
      placeholder: '13',
    });
    expect(after.fields[0]!.field_revisionid).not.toBe(old.field_revisionid);
    expect(after.fields[1]!.field_guid).not.toBe(old.field_guid);
    expect((await api(site, 'GET', `/step_forms/stepid/${stepid}`)).body).toEqual(after);
    expect((await api(site, 'GET', `/step_forms/form_revisionid/${before.form_revisionid}`)).body).toEqual(before);
    const guideAfter = (await api(site, 'GET', `/guides/${id('compressor-belt')}`)).body;
    expect(guideAfter.revisionid).toBeGreaterThan(guideBefore.revisionid);
    const audit = await call('GET', `${site.url}/__test/audit`, { query: { entity: 'step_form' } });
    expect(audit.body.map((e: { entity_id: string }) => e.entity_id)).toEqual([String(after.form_revisionid)]);
  });
});
