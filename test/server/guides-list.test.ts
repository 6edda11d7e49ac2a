import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import type { RunningSite } from '../../server/site.ts';
import type { DemoAccountName } from '../../server/demo-accounts.ts';
import { fullGuide, guideSummary } from './content-schemas.ts';
import { api, call, expectError, expectShape, signInAll, startTestSite, type SignedIn } from './helpers.ts';
import { checkPaging } from './paging-checks.ts';

// Left out of the run's request check against iFixit's description (server/testing/request-check.ts).
const UNCHECKED = { uncheckedBecause: 'the refusals of guide lists: bad paging, filters, ids and methods, on purpose' };

const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;
const PRIVATE = id('mig-setup');
const PUBLIC_COUNT = DEMO_GUIDES.filter((guide) => guide.public !== false).length;

let site: RunningSite;
let who: Record<DemoAccountName, SignedIn>;
beforeAll(async () => {
  site = await startTestSite({ demo: true, ...UNCHECKED });
  who = await signInAll(site);
});
afterAll(() => site.close());

describe('GET /guides', () => {
  it('lists public guide summaries by guideid, paged', async () => {
    const list = await checkPaging((query) => api(site, 'GET', '/guides', { query }), {
      key: (guide: z.infer<typeof guideSummary>) => guide.guideid,
      total: PUBLIC_COUNT,
    });
    expectShape(z.array(guideSummary), list);
    expect(list.map((guide) => guide.guideid)).not.toContain(PRIVATE);
    expect(list.every((guide) => guide.public)).toBe(true);
    const page = await api(site, 'GET', '/guides');
    expect(page.body).toHaveLength(Math.min(20, PUBLIC_COUNT));
  });

  it('filters by type and refuses an unknown one', async () => {
    const answer = await api(site, 'GET', '/guides', { query: { filter: 'replacement' } });
    const expected = DEMO_GUIDES.filter((guide) => guide.type === 'replacement' && guide.public !== false).length;
    expect(answer.body).toHaveLength(expected);
    expect(answer.body.every((guide: { type: string }) => guide.type === 'replacement')).toBe(true);
    expectError(await api(site, 'GET', '/guides', { query: { filter: 'sculpture' } }), 422, 'filter', 'invalid_value');
  });

  it('answers guideids with the guides that exist and are visible, all of them by default', async () => {
    const ids = [id('compressor-belt'), id('forklift-inspection'), PRIVATE, 9999];
    const answer = await api(site, 'GET', '/guides', { query: { guideids: ids.join(',') } });
    expect(answer.body.map((guide: { guideid: number }) => guide.guideid)).toEqual(
      [id('compressor-belt'), id('forklift-inspection')].sort((a, b) => a - b),
    );
    const many = await api(site, 'GET', '/guides', {
      query: { guideids: Array.from({ length: 30 }, (_, i) => i + 1).join(',') },
    });
    expect(many.body).toHaveLength(PUBLIC_COUNT);
    expectError(await api(site, 'GET', '/guides', { query: { guideids: '1,two' } }), 422, 'guideids');
    expectError(
      await api(site, 'GET', '/guides', {
        query: { guideids: Array.from({ length: 201 }, (_, i) => i + 1).join(',') },
      }),
      422,
      'guideids',
    );
  });

  it('includes private guides for admins only', async () => {
    expectError(await api(site, 'GET', '/guides', { query: { includePrivate: 'true' } }), 401);
    expectError(await api(site, 'GET', '/guides', { token: who.tech1.token, query: { includePrivate: 'true' } }), 403);
    expectError(await api(site, 'GET', '/guides', { token: who.author.token, query: { includePrivate: 'true' } }), 403);
    const admin = await api(site, 'GET', '/guides', {
      token: who.admin.token,
      query: { includePrivate: 'true', limit: 200 },
    });
    expect(admin.body).toHaveLength(DEMO_GUIDES.length);
    expect(admin.body.find((guide: { guideid: number }) => guide.guideid === PRIVATE)?.public).toBe(false);
    const plain = await api(site, 'GET', '/guides', { token: who.admin.token, query: { limit: 200 } });
    expect(plain.body).toHaveLength(PUBLIC_COUNT);
    expectError(await api(site, 'GET', '/guides', { query: { includePrivate: 'maybe' } }), 422, 'includePrivate');
  });

  it('lists only guides modified, or whose prerequisites were modified, since a time', async () => {
    const all = (await api(site, 'GET', '/guides', { query: { limit: 200 } })).body as {
      guideid: number;
      modified_date: number;
    }[];
    const newest = Math.max(...all.map((guide) => guide.modified_date));
    const since = await api(site, 'GET', '/guides', { query: { modifiedSince: Math.floor(newest), limit: 200 } });
    expect(since.body.length).toBeGreaterThan(0);
    expect(
      since.body.every(
        (guide: { modified_date: number; prereq_modified_date: number }) =>
          Math.max(guide.modified_date, guide.prereq_modified_date) >= Math.floor(newest),
      ),
    ).toBe(true);
    expect((await api(site, 'GET', '/guides', { query: { modifiedSince: Math.ceil(newest) + 1 } })).body).toEqual([]);
    expectError(await api(site, 'GET', '/guides', { query: { modifiedSince: 'yesterday' } }), 422, 'modifiedSince');
  });

  it('refuses other methods with 405 and Allow', async () => {
    const answer = await api(site, 'DELETE', '/guides');
    expectError(answer, 405);
    expect(answer.headers.get('allow')).toContain('GET');
  });
});

describe('GET /guides/featured', () => {
  it('lists the GUIDE_STARRED guides, paged', async () => {
    const starred = DEMO_GUIDES.filter((guide) => guide.flags.includes('GUIDE_STARRED')).map((guide) => id(guide.key));
    const list = await checkPaging((query) => api(site, 'GET', '/guides/featured', { query }), {
      key: (guide: { guideid: number }) => guide.guideid,
      total: starred.length,
    });
    expectShape(z.array(guideSummary), list);
    expect(list.map((guide) => guide.guideid)).toEqual(starred);
  });
});

describe('GET /guides/{guideid}', () => {
  it('answers the full guide with steps, lines, media, prerequisites, parts, tools and documents', async () => {
    const answer = await api(site, 'GET', `/guides/${id('compressor-belt')}`);
    expect(answer.status).toBe(200);
    const guide = expectShape(fullGuide, answer.body);
    const demo = DEMO_GUIDES[id('compressor-belt') - 1]!;
    expect(guide.title).toBe(demo.title);
    expect(guide.steps.map((step) => step.title)).toEqual(demo.steps.map((step) => step.title));
    expect(guide.steps.map((step) => step.orderby)).toEqual(demo.steps.map((_, i) => i + 1));
    expect(guide.steps[0]!.lines[0]!.level).toBe(0);
    expect(guide.prerequisites.map((p) => p.guideid)).toEqual([id('lockout')]);
    expect(guide.prereq_modified_date).toBe(guide.prerequisites[0]!.modified_date);
    expect(guide.flags.map((flag) => flag.flagid)).toEqual(['DANGER', 'GUIDE_STARRED']);
    expect(guide.documents).toHaveLength(1);
    expect(guide.introduction_rendered).toContain('<strong>lockout/tagout</strong>');
    expect(guide.comments.length).toBeGreaterThan(0);
    expect(guide.can_edit).toBe(false);
  });

  it('carries video and embed step media', async () => {
    const drain = expectShape(fullGuide, (await api(site, 'GET', `/guides/${id('compressor-drain')}`)).body);
    expect(drain.steps.some((step) => step.media.type === 'video')).toBe(true);
    const lp = expectShape(fullGuide, (await api(site, 'GET', `/guides/${id('forklift-lp-tank')}`)).body);
    expect(lp.steps.some((step) => step.media.type === 'embed')).toBe(true);
  });

  it('answers per viewer: favorited, can_edit', async () => {
    const guide = (await api(site, 'GET', `/guides/${id('compressor-belt')}`, { token: who.tech1.token })).body;
    expect(guide.favorited).toBe(true);
    expect(guide.can_edit).toBe(false);
    expect(
      (await api(site, 'GET', `/guides/${id('compressor-belt')}`, { token: who.author.token })).body.can_edit,
    ).toBe(true);
    expect((await api(site, 'GET', `/guides/${id('helmet-lens')}`, { token: who.tech1.token })).body.can_edit).toBe(
      true,
    );
  });

  it('is 404 for an unknown or malformed id', async () => {
    expectError(await api(site, 'GET', '/guides/9999'), 404);
    expectError(await api(site, 'GET', '/guides/abc'), 404);
  });

  it('shows a private guide to its author and admins only', async () => {
    expectError(await api(site, 'GET', `/guides/${PRIVATE}`), 401);
    expectError(await api(site, 'GET', `/guides/${PRIVATE}`, { token: who.tech1.token }), 403);
    for (const account of ['author', 'admin'] as const) {
      const answer = await api(site, 'GET', `/guides/${PRIVATE}`, { token: who[account].token });
      expect(answer.status).toBe(200);
      expect(answer.body.public).toBe(false);
    }
  });

  it('serves ?pretty', async () => {
    const answer = await call('GET', `${site.apiUrl}/guides/${id('lockout')}?pretty`);
    expect(answer.text).toContain('\n  "guideid"');
  });
});
