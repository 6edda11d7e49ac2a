import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoAccountName } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { api, call, expectError, signInAll, startTestSite, type SignedIn } from './helpers.ts';
import { checkPaging } from './paging-checks.ts';

// Left out of the run's request check against iFixit's description (server/testing/request-check.ts).
const UNCHECKED = {
  uncheckedBecause: "the server's refusals of content requests no client sends: unknown methods, bad paging",
};

let site: RunningSite;
let who: Record<DemoAccountName, SignedIn>;
beforeAll(async () => {
  site = await startTestSite({ demo: true, ...UNCHECKED });
  who = await signInAll(site);
});
afterAll(() => site.close());

describe('methods a content path does not take', () => {
  const cases: [string, string, string][] = [
    ['PUT', '/work_log', 'GET, POST'],
    ['PATCH', '/work_log/1', 'GET, DELETE'],
    ['GET', '/work_log/1/pause', 'POST'],
    ['DELETE', '/search/belt', 'GET'],
    ['POST', '/categories', 'GET'],
    ['DELETE', '/tags', 'GET'],
    ['POST', '/media/images/1', 'GET'],
    ['PUT', '/step_forms/stepid/1', 'GET'],
    ['GET', '/quizzes/attempt/1', ''],
    ['POST', '/user/favorites/guides/1', 'PUT, DELETE'],
    ['PUT', '/comments/1', 'GET, PATCH, DELETE'],
    ['PUT', '/user/media/uploads', 'POST'],
  ];
  for (const [method, path, allow] of cases) {
    it(`${method} ${path} is ${allow ? '405' : '404'}`, async () => {
      const answer = await api(site, method, path, { token: who.tech1.token });
      if (!allow) return expectError(answer, 404);
      expectError(answer, 405);
      const allowed = (answer.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      for (const m of allow.split(', ')) expect(allowed).toContain(m);
    });
  }

  it('media file paths take GET and HEAD only', async () => {
    const guide = (await api(site, 'GET', '/guides/2')).body;
    const answer = await call('DELETE', guide.image.thumbnail);
    expect(answer.status).toBe(405);
  });
});

describe('reading a guide', () => {
  it('records a view for a signed-in reader', async () => {
    await api(site, 'GET', '/guides/3', { token: who.tech2.token });
    const views = await api(site, 'GET', `/user_view_history/user/${who.tech2.userid}`, { token: who.tech2.token });
    expect(views.body.map((v: { doc_type: string; docid: string }) => `${v.doc_type}:${v.docid}`)).toContain('GUIDE:3');
  });
});

describe('/users/{userid}/guides and /users/{userid}/completions', () => {
  it('page by guideid', async () => {
    const total = (await api(site, 'GET', `/users/${who.author.userid}/guides`, { query: { limit: 200 } })).body.length;
    await checkPaging((query) => api(site, 'GET', `/users/${who.author.userid}/guides`, { query }), {
      key: (g: { guideid: number }) => g.guideid,
      total,
    });
    await api(site, 'PUT', '/user/completions/guides/1', { token: who.tech1.token });
    await checkPaging((query) => api(site, 'GET', `/users/${who.tech1.userid}/completions`, { query }), {
      key: (g: { guideid: number }) => g.guideid,
      total: 2,
    });
  });
});
