import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { DEMO_CATEGORIES } from '../../server/demo/site-data.ts';
import type { DemoAccountName } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { categoryDetail, hierarchy, lightWiki, searchGuide, searchWiki } from './content-schemas.ts';
import { api, expectError, expectShape, signInAll, startTestSite, type SignedIn } from './helpers.ts';
import { paged } from './schemas.ts';
import { checkMoreResults, checkPaging } from './paging-checks.ts';

// Left out of the run's request check against iFixit's description (server/testing/request-check.ts).
const UNCHECKED = {
  uncheckedBecause: "the seed's category pages and hierarchy (beyond iFixit's description) and their refusals",
};

let site: RunningSite;
let who: Record<DemoAccountName, SignedIn>;
beforeAll(async () => {
  site = await startTestSite({ demo: true, ...UNCHECKED });
  who = await signInAll(site);
});
afterAll(() => site.close());

const EXPECTED_TREE = {
  'Air Compressors': null,
  Forklifts: null,
  'Machine Tools': { 'Band Saws': null, Lathes: null },
  'Shop Safety': null,
  Welding: { 'MIG Welders': null },
};

describe('categories', () => {
  it('GET /categories nests titles, leaves are null', async () => {
    const answer = await api(site, 'GET', '/categories');
    expect(expectShape(hierarchy, answer.body)).toEqual(EXPECTED_TREE);
  });

  it('GET /categories/all lists every name', async () => {
    const answer = await api(site, 'GET', '/categories/all');
    expect(expectShape(z.array(z.string()), answer.body).sort()).toEqual(DEMO_CATEGORIES.map((c) => c.title).sort());
  });

  it('GET /categories/{name} has the page, its children and its guides', async () => {
    const answer = await api(site, 'GET', `/categories/${encodeURIComponent('Machine Tools')}`);
    const detail = expectShape(categoryDetail, answer.body);
    expect(detail.children.map((c) => c.title).sort()).toEqual(['Band Saws', 'Lathes']);
    expect(detail.guides).toEqual([]);
    const lathes = expectShape(categoryDetail, (await api(site, 'GET', '/categories/Lathes')).body);
    expect(lathes.ancestors).toEqual(['Machine Tools']);
    expect(lathes.guides.map((g) => g.title).sort()).toEqual(
      DEMO_GUIDES.filter((g) => g.category === 'Lathes')
        .map((g) => g.title)
        .sort(),
    );
    expect((await api(site, 'GET', '/categories/Air_Compressors')).body.title).toBe('Air Compressors');
    expectError(await api(site, 'GET', '/categories/Spaceships'), 404);
  });

  it('shows a private guide in its category to its author only', async () => {
    const mig = 'MIG Welders';
    const anonymous = (await api(site, 'GET', `/categories/${encodeURIComponent(mig)}`)).body;
    const author = (await api(site, 'GET', `/categories/${encodeURIComponent(mig)}`, { token: who.author.token })).body;
    expect(author.guides.length).toBe(anonymous.guides.length + 1);
  });

  it('GET /wikis/CATEGORY?display=hierarchy gives the tree and the display titles', async () => {
    const answer = await api(site, 'GET', '/wikis/CATEGORY', { query: { display: 'hierarchy' } });
    const body = expectShape(z.object({ hierarchy, display_titles: z.record(z.string(), z.string()) }), answer.body);
    expect(body.hierarchy).toEqual(EXPECTED_TREE);
    expect(Object.keys(body.display_titles).sort()).toEqual(DEMO_CATEGORIES.map((c) => c.title).sort());
    const titles = await api(site, 'GET', '/wikis/CATEGORY', { query: { display: 'titles' } });
    expect(titles.body).toHaveLength(DEMO_CATEGORIES.length);
    const light = await api(site, 'GET', '/wikis/CATEGORY');
    expectShape(z.array(lightWiki), light.body);
    expectError(await api(site, 'GET', '/wikis/CATEGORY', { query: { display: 'tree' } }), 422, 'display');
    expectError(await api(site, 'GET', '/wikis/GADGETS'), 404);
    expect((await api(site, 'GET', '/wikis/INFO')).body).toEqual([]);
  });

  it('GET /wikis/CATEGORY/{title} and its children and tags', async () => {
    expectShape(categoryDetail, (await api(site, 'GET', '/wikis/CATEGORY/Forklifts')).body);
    expect(
      (await api(site, 'GET', `/wikis/CATEGORY/${encodeURIComponent('Machine Tools')}/children`)).body
        .map((c: { title: string }) => c.title)
        .sort(),
    ).toEqual(['Band Saws', 'Lathes']);
    expect((await api(site, 'GET', '/wikis/CATEGORY/Forklifts/tags')).body).toEqual(['forklift']);
    expectError(
      await api(site, 'PUT', '/wikis/CATEGORY/Forklifts/tag', { token: who.tech1.token, json: { tag: 'yard' } }),
      403,
    );
    const tagged = await api(site, 'PUT', '/wikis/CATEGORY/Forklifts/tag', {
      token: who.author.token,
      json: { tag: 'yard' },
    });
    expect(tagged.body).toEqual(['forklift', 'yard']);
    expect(
      (await api(site, 'DELETE', '/wikis/CATEGORY/Forklifts/tag', { token: who.author.token, json: { tag: 'yard' } }))
        .body,
    ).toEqual(['forklift']);
    expectError(await api(site, 'GET', '/wikis/CATEGORY/Nothing'), 404);
  });
});

describe('GET /search/{query}', () => {
  const guideOrWiki = z.union([searchGuide, searchWiki]);

  it('finds guides by title, summary and step text, and category pages', async () => {
    const answer = await api(site, 'GET', '/search/forklift', { query: { limit: 200 } });
    const body = expectShape(paged(guideOrWiki), answer.body);
    expect(body.search).toBe('forklift');
    const guides = body.results.filter((r) => r.dataType === 'guide');
    expect(guides.length).toBeGreaterThanOrEqual(3);
    expect(body.results.some((r) => r.dataType === 'wiki' && r.title === 'Forklifts')).toBe(true);
    // Title matches rank first.
    expect((guides[0] as { title: string }).title.toLowerCase()).toContain('forklift');
    const stepText = await api(site, 'GET', '/search/eccentric');
    expect(stepText.body.results.map((r: { title: string }) => r.title)).toEqual([
      'Adjust the Blade Guides on a Horizontal Band Saw',
    ]);
  });

  it('needs every word and filters by kind', async () => {
    expect((await api(site, 'GET', `/search/${encodeURIComponent('belt deflection')}`)).body.totalResults).toBe(1);
    const wikis = await api(site, 'GET', '/search/forklift', { query: { filter: 'category' } });
    expect(wikis.body.results.every((r: { dataType: string }) => r.dataType === 'wiki')).toBe(true);
    const guides = await api(site, 'GET', '/search/forklift', { query: { filter: 'guide,teardown' } });
    expect(guides.body.results.every((r: { dataType: string }) => r.dataType === 'guide')).toBe(true);
    expect((await api(site, 'GET', '/search/forklift', { query: { filter: 'question' } })).body.results).toEqual([]);
    expectError(await api(site, 'GET', '/search/forklift', { query: { filter: 'guide,poem' } }), 422, 'filter');
  });

  it('hides private guides from those who may not see them', async () => {
    expect((await api(site, 'GET', '/search/polarity')).body.totalResults).toBe(0);
    expect((await api(site, 'GET', '/search/polarity', { token: who.author.token })).body.totalResults).toBe(1);
  });

  it('pages with moreResults', async () => {
    const get = (query: Record<string, string | number | undefined>) => api(site, 'GET', '/search/the', { query });
    const total = (await get({ limit: 1 })).body.totalResults as number;
    await checkMoreResults(get, total);
    await checkPaging(get, {
      items: (body) => body.results,
      key: (r: { url: string }) => r.url,
      ordered: false,
      total,
    });
  });
});
