import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createContext } from '../../server/context.ts';
import type { RunningSite } from '../../server/site.ts';
import { recordView } from '../../server/view-history/repo.ts';
import { api, expectError, expectShape, signInAll, startTestSite, type SignedIn } from './helpers.ts';
import { viewRecord } from './schemas.ts';

// Left out of the run's request check against iFixit's description (server/testing/request-check.ts).
const UNCHECKED = {
  uncheckedBecause: "the seed's view history, which iFixit's description lacks and the client never asks",
};

let site: RunningSite;
let admin: SignedIn;
let author: SignedIn;
let tech1: SignedIn;
let tech2: SignedIn;
const records = z.array(viewRecord);

/** Views at fixed times, written the way a guide route writes them. */
function view(userid: number, type: 'GUIDE' | 'WIKI', docid: number, at: number): void {
  recordView(createContext(site.db, {}, { now: () => at, set: () => {} }), userid, type, docid);
}

beforeAll(async () => {
  site = await startTestSite(UNCHECKED);
  ({ admin, author, tech1, tech2 } = await signInAll(site));
  view(tech1.userid, 'GUIDE', 7, 1_000);
  view(tech1.userid, 'GUIDE', 8, 2_000);
  view(tech1.userid, 'WIKI', 7, 3_000);
  view(tech2.userid, 'GUIDE', 7, 2_500);
});
afterAll(() => site.close());

describe('GET /user_view_history/user/{userid}', () => {
  it("answers a user's own views, newest first", async () => {
    const answer = await api(site, 'GET', `/user_view_history/user/${tech1.userid}`, { token: tech1.token });
    const body = expectShape(records, answer.body);
    expect(body.map((record) => [record.doc_type, record.docid, record.date])).toEqual([
      ['WIKI', '7', 3_000],
      ['GUIDE', '8', 2_000],
      ['GUIDE', '7', 1_000],
    ]);
    expect(body[0]?.username).toBe(tech1.username);
  });

  it('filters with start_date and end_date in unix seconds, both inclusive', async () => {
    const between = await api(site, 'GET', `/user_view_history/user/${tech1.userid}`, {
      token: tech1.token,
      query: { start_date: 2_000, end_date: 3_000 },
    });
    expect(between.body.map((record: { date: number }) => record.date)).toEqual([3_000, 2_000]);
    const before = await api(site, 'GET', `/user_view_history/user/${tech1.userid}`, {
      token: tech1.token,
      query: { end_date: 1_999 },
    });
    expect(before.body.map((record: { date: number }) => record.date)).toEqual([1_000]);
    expectError(
      await api(site, 'GET', `/user_view_history/user/${tech1.userid}`, {
        token: tech1.token,
        query: { start_date: '2024-01-01' },
      }),
      422,
      'start_date',
    );
    expectError(
      await api(site, 'GET', `/user_view_history/user/${tech1.userid}`, {
        token: tech1.token,
        query: { start_date: 5, end_date: 4 },
      }),
      422,
      'end_date',
    );
  });

  it("lets admins read anyone's history and nobody else", async () => {
    expect(
      (await api(site, 'GET', `/user_view_history/user/${tech1.userid}`, { token: admin.token })).body,
    ).toHaveLength(3);
    expectError(await api(site, 'GET', `/user_view_history/user/${tech1.userid}`, { token: tech2.token }), 403);
    expectError(await api(site, 'GET', `/user_view_history/user/${tech1.userid}`), 401);
    expectError(await api(site, 'GET', '/user_view_history/user/9999', { token: admin.token }), 404);
  });
});

describe('GET /user_view_history/{doc_type}/{docid}', () => {
  it("answers a document's views by everyone, newest first, guide and wiki kept apart", async () => {
    const guide = expectShape(
      records,
      (await api(site, 'GET', '/user_view_history/guide/7', { token: author.token })).body,
    );
    expect(guide.map((record) => [record.userid, record.date])).toEqual([
      [tech2.userid, 2_500],
      [tech1.userid, 1_000],
    ]);
    const wiki = (await api(site, 'GET', '/user_view_history/wiki/7', { token: author.token })).body;
    expect(wiki.map((record: { doc_type: string }) => record.doc_type)).toEqual(['WIKI']);
    const later = (
      await api(site, 'GET', '/user_view_history/guide/7', { token: admin.token, query: { start_date: 2_001 } })
    ).body;
    expect(later).toHaveLength(1);
    expect((await api(site, 'GET', '/user_view_history/guide/12345', { token: admin.token })).body).toEqual([]);
  });

  it('is for content editors, and knows only guide and wiki', async () => {
    expectError(await api(site, 'GET', '/user_view_history/guide/7', { token: tech1.token }), 403);
    expectError(await api(site, 'GET', '/user_view_history/guide/7'), 401);
    expectError(await api(site, 'GET', '/user_view_history/video/7', { token: admin.token }), 404);
  });
});
