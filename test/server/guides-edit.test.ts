import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import type { DemoAccountName } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { fullGuide } from './content-schemas.ts';
import { api, call, expectError, expectShape, signInAll, startTestSite, type SignedIn } from './helpers.ts';

// Left out of the run's request check against iFixit's description (server/testing/request-check.ts).
const UNCHECKED = {
  uncheckedBecause: 'the refusals of guide edits: missing or wrong revisionids, bad fields, bodies that do not parse',
};

const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;

let site: RunningSite;
let who: Record<DemoAccountName, SignedIn>;
beforeAll(async () => {
  site = await startTestSite({ demo: true, ...UNCHECKED });
  who = await signInAll(site);
});
afterAll(() => site.close());

const audit = async (entity: string) =>
  (await call('GET', `${site.url}/__test/audit`, { query: { entity } })).body as { entity_id: string }[];

describe('PATCH /guides/{guideid}?revisionid=', () => {
  const guideid = id('compressor-oil');

  it('needs a signed-in user who may edit the guide', async () => {
    expectError(
      await api(site, 'PATCH', `/guides/${guideid}`, { query: { revisionid: 1 }, json: { title: 'x' } }),
      401,
    );
    expectError(
      await api(site, 'PATCH', `/guides/${guideid}`, {
        token: who.tech1.token,
        query: { revisionid: 1 },
        json: { title: 'x' },
      }),
      403,
    );
    expectError(
      await api(site, 'PATCH', '/guides/9999', {
        token: who.author.token,
        query: { revisionid: 1 },
        json: { title: 'x' },
      }),
      404,
    );
  });

  it('refuses a missing revisionid with 422 missing_field, a stale one with 409 and the current guide', async () => {
    const current = (await api(site, 'GET', `/guides/${guideid}`)).body;
    expectError(
      await api(site, 'PATCH', `/guides/${guideid}`, { token: who.author.token, json: { title: 'x' } }),
      422,
      'revisionid',
      'missing_field',
    );
    expectError(
      await api(site, 'PATCH', `/guides/${guideid}`, {
        token: who.author.token,
        query: { revisionid: 'one' },
        json: { title: 'x' },
      }),
      422,
      'revisionid',
      'invalid_value',
    );
    const stale = await api(site, 'PATCH', `/guides/${guideid}`, {
      token: who.author.token,
      query: { revisionid: current.revisionid + 100 },
      json: { title: 'x' },
    });
    expect(stale.status).toBe(409);
    expect(expectShape(fullGuide, stale.body)).toMatchObject({
      guideid,
      revisionid: current.revisionid,
      title: current.title,
    });
  });

  it('refuses bad JSON with 400 and bad fields with 422 naming them', async () => {
    const { revisionid } = (await api(site, 'GET', `/guides/${guideid}`)).body;
    const bad = await api(site, 'PATCH', `/guides/${guideid}`, {
      token: who.author.token,
      query: { revisionid },
      body: '{"title":',
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(bad, 400);
    for (const [json, field] of [
      [{ difficulty: 'Trivial' }, 'difficulty'],
      [{ title: '' }, 'title'],
      [{ category: 'Spaceships' }, 'category'],
      [{ prerequisites: [guideid] }, 'prerequisites'],
      [{ flags: ['NOT_A_FLAG'] }, 'flags[0]'],
    ] as const) {
      expectError(
        await api(site, 'PATCH', `/guides/${guideid}`, { token: who.author.token, query: { revisionid }, json }),
        422,
        field,
      );
    }
    expect((await api(site, 'GET', `/guides/${guideid}`)).body.revisionid).toBe(revisionid);
  });

  it('applies the change as a new revision with a later modified_date, once', async () => {
    const before = (await api(site, 'GET', `/guides/${guideid}`)).body;
    const answer = await api(site, 'PATCH', `/guides/${guideid}`, {
      token: who.author.token,
      query: { revisionid: before.revisionid },
      json: { title: 'Change the Oil in a Two-Stage Pump', difficulty: 'Moderate' },
    });
    expect(answer.status, answer.text).toBe(200);
    const after = expectShape(fullGuide, answer.body);
    expect(after.revisionid).toBeGreaterThan(before.revisionid);
    expect(after.modified_date).toBeGreaterThan(before.modified_date);
    expect(after).toMatchObject({
      title: 'Change the Oil in a Two-Stage Pump',
      difficulty: 'Moderate',
      summary: before.summary,
    });
    expect(after.steps.map((s) => s.stepid)).toEqual(before.steps.map((s: { stepid: number }) => s.stepid));
    expect((await audit('guide')).filter((entry) => entry.entity_id === String(guideid))).toHaveLength(1);
    // The old revisionid is stale now.
    const again = await api(site, 'PATCH', `/guides/${guideid}`, {
      token: who.author.token,
      query: { revisionid: before.revisionid },
      json: { title: 'y' },
    });
    expect(again.status).toBe(409);
    expect(again.body.revisionid).toBe(after.revisionid);
    const listed = await api(site, 'GET', '/guides', { query: { modifiedSince: Math.floor(after.modified_date) } });
    expect(listed.body.map((g: { guideid: number }) => g.guideid)).toContain(guideid);
    // Earlier revisions stay readable, for work-log entries pinned to them.
    const old = await api(site, 'GET', `/guides/${guideid}`, { query: { revisionid: before.revisionid } });
    expect(expectShape(fullGuide, old.body)).toMatchObject({
      revisionid: before.revisionid,
      title: before.title,
      modified_date: before.modified_date,
    });
    expectError(await api(site, 'GET', `/guides/${guideid}`, { query: { revisionid: 1 } }), 404);
    expectError(await api(site, 'GET', `/guides/${guideid}`, { query: { revisionid: 'old' } }), 422, 'revisionid');
  });

  it('lets the author of a guide edit it without the Author privilege', async () => {
    const helmet = id('helmet-lens');
    const { revisionid } = (await api(site, 'GET', `/guides/${helmet}`)).body;
    const answer = await api(site, 'PATCH', `/guides/${helmet}`, {
      token: who.tech1.token,
      query: { revisionid },
      json: { summary: 'New summary' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.summary).toBe('New summary');
  });

  it('bumps prereq_modified_date of the guides that need the changed one', async () => {
    const lockout = (await api(site, 'GET', `/guides/${id('lockout')}`)).body;
    const changed = await api(site, 'PATCH', `/guides/${id('lockout')}`, {
      token: who.admin.token,
      query: { revisionid: lockout.revisionid },
      json: { summary: 'Isolate all energy.' },
    });
    const belt = (await api(site, 'GET', `/guides/${id('compressor-belt')}`)).body;
    expect(belt.prereq_modified_date).toBe(changed.body.modified_date);
  });
});

describe('guide tags', () => {
  const guideid = id('lathe-gib');

  it('adds and removes a tag, answering the full guide', async () => {
    const added = await api(site, 'PUT', `/guides/${guideid}/tag`, {
      token: who.author.token,
      json: { tag: 'chatter' },
    });
    expect(added.status, added.text).toBe(200);
    expect(expectShape(fullGuide, added.body).tags).toContain('chatter');
    expect((await api(site, 'GET', `/guides/${guideid}/tags`)).body).toContain('chatter');
    expect((await api(site, 'GET', '/tags', { query: { limit: 200 } })).body).toContain('chatter');
    const removed = await api(site, 'DELETE', `/guides/${guideid}/tag`, {
      token: who.author.token,
      json: { tag: 'chatter' },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.tags).not.toContain('chatter');
    expect((await api(site, 'GET', `/guides/${guideid}/tags`)).body).toEqual(['adjustment', 'lathe', 'ways']);
  });

  it('needs edit rights and a tag', async () => {
    expectError(await api(site, 'PUT', `/guides/${guideid}/tag`, { json: { tag: 'x' } }), 401);
    expectError(await api(site, 'PUT', `/guides/${guideid}/tag`, { token: who.tech2.token, json: { tag: 'x' } }), 403);
    expectError(
      await api(site, 'PUT', `/guides/${guideid}/tag`, { token: who.author.token, json: {} }),
      422,
      'tag',
      'missing_field',
    );
    expectError(await api(site, 'PUT', '/guides/9999/tag', { token: who.author.token, json: { tag: 'x' } }), 404);
    expectError(await api(site, 'GET', '/guides/9999/tags'), 404);
  });

  it('lists tags by tagid, paged', async () => {
    const all = (await api(site, 'GET', '/tags', { query: { limit: 200 } })).body as string[];
    expect((await api(site, 'GET', '/tags', { query: { limit: 1 } })).body).toEqual(all.slice(0, 1));
    expect((await api(site, 'GET', '/tags', { query: { limit: 200, order: 'DESC' } })).body).toEqual(
      [...all].reverse(),
    );
    expect((await api(site, 'GET', '/tags', { query: { offset: all.length } })).body).toEqual([]);
    expectError(await api(site, 'GET', '/tags', { query: { limit: 201 } }), 422, 'limit');
  });
});

describe('DELETE /guides/{guideid}', () => {
  it('deletes a guide for its editors; it is gone from detail and lists', async () => {
    const guideid = id('bandsaw-guides');
    expectError(await api(site, 'DELETE', `/guides/${guideid}`), 401);
    expectError(await api(site, 'DELETE', `/guides/${guideid}`, { token: who.tech1.token }), 403);
    const stale = await api(site, 'DELETE', `/guides/${guideid}`, {
      token: who.author.token,
      query: { revisionid: 12345 },
    });
    expect([stale.status, stale.body.guideid]).toEqual([409, guideid]);
    const deleted = await api(site, 'DELETE', `/guides/${guideid}`, { token: who.author.token });
    expect(deleted.status).toBe(204);
    expectError(await api(site, 'GET', `/guides/${guideid}`), 404);
    expect((await api(site, 'GET', '/guides', { query: { guideids: `${guideid}` } })).body).toEqual([]);
    expectError(await api(site, 'DELETE', `/guides/${guideid}`, { token: who.author.token }), 404);
  });
});
