import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import type { DemoAccountName } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { guideSummary } from './content-schemas.ts';
import { api, call, expectError, expectShape, signInAll, startTestSite, type SignedIn } from './helpers.ts';
import { checkPaging } from './paging-checks.ts';

// Left out of the run's request check against iFixit's description (server/testing/request-check.ts).
const UNCHECKED = {
  uncheckedBecause:
    "the seed's own guides and completions lists with their paging refusals, which the client never asks",
};

const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;
const ids = (body: { guideid: number }[]) => body.map((g) => g.guideid);

let site: RunningSite;
let who: Record<DemoAccountName, SignedIn>;
beforeAll(async () => {
  site = await startTestSite({ demo: true, ...UNCHECKED });
  who = await signInAll(site);
});
afterAll(() => site.close());

describe('GET /user/guides and /users/{userid}/guides', () => {
  it('lists the guides a user wrote, private ones only to themselves and admins', async () => {
    const authored = DEMO_GUIDES.filter((g) => (g.author ?? 'author') === 'author');
    const get = (query: Record<string, string | number | undefined>) =>
      api(site, 'GET', '/user/guides', { token: who.author.token, query });
    const mine = await checkPaging(get, { key: (g: { guideid: number }) => g.guideid, total: authored.length });
    expectShape(z.array(guideSummary), mine);
    expect(ids(mine)).toContain(id('mig-setup'));
    expect(ids((await api(site, 'GET', '/user/guides', { token: who.tech1.token })).body)).toEqual([id('helmet-lens')]);
    expectError(await api(site, 'GET', '/user/guides'), 401);
    const publicView = (await api(site, 'GET', `/users/${who.author.userid}/guides`, { query: { limit: 200 } })).body;
    expect(publicView).toHaveLength(authored.length - 1);
    expect(
      (await api(site, 'GET', `/users/${who.author.userid}/guides`, { token: who.admin.token, query: { limit: 200 } }))
        .body,
    ).toHaveLength(authored.length);
    expectError(await api(site, 'GET', '/users/9999/guides'), 404);
  });
});

describe('favorites', () => {
  it("lists, adds and removes the current user's favorite guides", async () => {
    expect(ids((await api(site, 'GET', '/user/favorites/guides', { token: who.tech1.token })).body)).toEqual([
      id('compressor-belt'),
      id('forklift-inspection'),
    ]);
    const lathe = id('lathe-chuck');
    const put = await api(site, 'PUT', `/user/favorites/guides/${lathe}`, { token: who.tech1.token });
    expect(put.status).toBe(204);
    expect((await api(site, 'PUT', `/user/favorites/guides/${lathe}`, { token: who.tech1.token })).status).toBe(204);
    const list = await api(site, 'GET', '/user/favorites/guides', { token: who.tech1.token });
    expect(ids(expectShape(z.array(guideSummary), list.body))).toContain(lathe);
    expect((await api(site, 'GET', `/guides/${lathe}`, { token: who.tech1.token })).body.favorited).toBe(true);
    expect((await api(site, 'DELETE', `/user/favorites/guides/${lathe}`, { token: who.tech1.token })).status).toBe(204);
    expect((await api(site, 'DELETE', `/user/favorites/guides/${lathe}`, { token: who.tech1.token })).status).toBe(204);
    expect(ids((await api(site, 'GET', '/user/favorites/guides', { token: who.tech1.token })).body)).not.toContain(
      lathe,
    );
    const audit = await call('GET', `${site.url}/__test/audit`, { query: { entity: 'favorites' } });
    expect(audit.body).toHaveLength(2);
  });

  it('needs a user and a guide they can see', async () => {
    expectError(await api(site, 'GET', '/user/favorites/guides'), 401);
    expectError(await api(site, 'PUT', `/user/favorites/guides/${id('lockout')}`), 401);
    expectError(await api(site, 'PUT', '/user/favorites/guides/9999', { token: who.tech1.token }), 404);
    expectError(await api(site, 'PUT', `/user/favorites/guides/${id('mig-setup')}`, { token: who.tech1.token }), 403);
  });

  it("GET /users/{userid}/favorites/guides shows another user's favorites", async () => {
    expect(ids((await api(site, 'GET', `/users/${who.tech2.userid}/favorites/guides`)).body)).toEqual([
      id('forklift-inspection'),
    ]);
    expectError(await api(site, 'GET', '/users/9999/favorites/guides'), 404);
    const get = (query: Record<string, string | number | undefined>) =>
      api(site, 'GET', `/users/${who.tech1.userid}/favorites/guides`, { query });
    await checkPaging(get, { key: (g: { guideid: number }) => g.guideid, total: 2 });
  });
});

describe('completions', () => {
  it('lists guides completed by finishing a work-log entry, or marked complete', async () => {
    expect(ids((await api(site, 'GET', '/user/completions', { token: who.tech1.token })).body)).toEqual([
      id('forklift-inspection'),
    ]);
    expect(
      (await api(site, 'GET', `/guides/${id('forklift-inspection')}`, { token: who.tech1.token })).body.completed,
    ).toBe(true);
    const entry = (
      await api(site, 'POST', '/work_log', {
        token: who.tech2.token,
        json: { guideid: id('lockout'), workorderid: 'WO-c' },
      })
    ).body;
    await api(site, 'POST', `/work_log/${entry.entryid}/finish`, {
      token: who.tech2.token,
      query: { revisionid: entry.revisionid },
    });
    expect(ids((await api(site, 'GET', '/user/completions', { token: who.tech2.token })).body)).toEqual([
      id('lockout'),
    ]);
    expect(
      (await api(site, 'PUT', `/user/completions/guides/${id('mig-tip')}`, { token: who.tech2.token })).status,
    ).toBe(204);
    const get = (query: Record<string, string | number | undefined>) =>
      api(site, 'GET', '/user/completions', { token: who.tech2.token, query });
    const list = await checkPaging(get, { key: (g: { guideid: number }) => g.guideid, total: 2 });
    expectShape(z.array(guideSummary), list);
    expect(
      (await api(site, 'DELETE', `/user/completions/guides/${id('mig-tip')}`, { token: who.tech2.token })).status,
    ).toBe(204);
    expect(ids((await api(site, 'GET', `/users/${who.tech2.userid}/completions`)).body)).toEqual([id('lockout')]);
    expectError(await api(site, 'GET', '/user/completions'), 401);
  });
});
