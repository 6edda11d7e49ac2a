import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Db } from '../../server/db/types.ts';
import type { RunningSite } from '../../server/site.ts';
import { insertUser } from '../../server/users/repo.ts';
import { api, expectError, expectShape, signIn, startTestSite, type SignedIn } from './helpers.ts';
import { listedUser, paged } from './schemas.ts';

// Left out of the run's request check against iFixit's description (server/testing/request-check.ts).
const UNCHECKED = {
  uncheckedBecause:
    "the seed's user search and listing beyond iFixit's description, which the client never asks, and their refusals",
};

// Inserted in the opposite order of the ranking, so ordering by userid alone would fail the test.
const RIVALS = [
  // partial e-mail
  { email: 'crivera@shop.test', username: 'Chris Ives', unique_username: 'civ', join_date: 1_750_000_000 },
  // partial username, not unique
  { email: 'eli@shop.test', username: 'Eli Rivera', unique_username: null, join_date: 1_750_000_100 },
  // partial username
  { email: 'dana@shop.test', username: 'Dana Rivera-Smith', unique_username: 'dana', join_date: 1_750_000_200 },
  // partial unique
  { email: 'ros@shop.test', username: 'Ros Banner', unique_username: 'riveras', join_date: 1_750_000_300 },
  // exact username
  { email: 'riv@shop.test', username: 'Rivera', unique_username: 'riv1', join_date: 1_750_000_400 },
  // exact unique
  { email: 'alex@shop.test', username: 'Alex Moreno', unique_username: 'RIVERA', join_date: 1_750_000_500 },
  // For the e-mail rule: an exact e-mail beats a partial unique_username and a partial e-mail.
  { email: 'ashlee@shop.test', username: 'Ash', unique_username: 'ash', join_date: 1_750_000_600 },
  { email: 'old@shop.test', username: 'Lee Old', unique_username: 'lee@shop.test.old', join_date: 1_750_000_700 },
  { email: 'Lee@Shop.test', username: 'Lee Park', unique_username: 'leepark', join_date: 1_750_000_800 },
];

function seedRivals(db: Db): void {
  for (const person of RIVALS) insertUser(db, { ...person, password_hash: 'none' });
}

let site: RunningSite;
let admin: SignedIn;
let author: SignedIn;
let tech: SignedIn;
const people = z.array(listedUser);

beforeAll(async () => {
  site = await startTestSite({ seed: seedRivals, ...UNCHECKED });
  [admin, author, tech] = await Promise.all([signIn(site, 'admin'), signIn(site, 'author'), signIn(site, 'tech1')]);
});
afterAll(() => site.close());

const names = (users: { username: string }[]) => users.map((user) => user.username);

describe('GET /users', () => {
  it('lists users in userid order, ASC by default and DESC on request', async () => {
    const asc = expectShape(people, (await api(site, 'GET', '/users', { query: { limit: 200 } })).body);
    expect(asc).toHaveLength(4 + RIVALS.length);
    expect(asc.map((user) => user.userid)).toEqual([...asc.map((user) => user.userid)].sort((a, b) => a - b));
    const desc = expectShape(people, (await api(site, 'GET', '/users', { query: { limit: 200, order: 'DESC' } })).body);
    expect(desc).toEqual([...asc].reverse());
  });

  it('pages: default 20, limit 1, offset past the end', async () => {
    const all = (await api(site, 'GET', '/users', { query: { limit: 200 } })).body as { userid: number }[];
    const one = (await api(site, 'GET', '/users', { query: { limit: 1, offset: 2 } })).body;
    expect(one).toEqual([all[2]]);
    expect((await api(site, 'GET', '/users', { query: { offset: all.length } })).body).toEqual([]);
    expect((await api(site, 'GET', '/users', { query: { offset: 10_000, limit: 200 } })).body).toEqual([]);
  });

  it('filters by joinedSince (inclusive)', async () => {
    const joined = (await api(site, 'GET', '/users', { query: { joinedSince: 1_750_000_400, limit: 200 } })).body;
    expect(names(joined)).toEqual(['Rivera', 'Alex Moreno', 'Ash', 'Lee Old', 'Lee Park']);
    expectError(await api(site, 'GET', '/users', { query: { joinedSince: 'yesterday' } }), 422, 'joinedSince');
  });
});

describe('GET /users/search/{search}', () => {
  // The reference's ranking with e-mail is what an Admin gets; others match names only (below).
  const search = (text: string, query: Record<string, string | number> = {}, token: string | null = admin.token) =>
    api(site, 'GET', `/users/search/${encodeURIComponent(text)}`, { query, token });

  it('matches e-mail addresses for Admins only: anonymous callers and other users match names', async () => {
    for (const token of [null, tech.token, author.token]) {
      const answer = (await search('rivera', {}, token)).body;
      expect(names(answer.results)).toEqual(['Alex Moreno', 'Rivera', 'Ros Banner', 'Eli Rivera', 'Dana Rivera-Smith']);
      expect(answer.totalResults).toBe(5);
      // Lee Park's e-mail is lee@shop.test: only Lee Old's unique_username (lee@shop.test.old) holds the text.
      expect(names((await search('LEE@shop.TEST', {}, token)).body.results)).toEqual(['Lee Old']);
      expect(names((await search('shop.test', {}, token)).body.results)).toEqual(['Lee Old']);
      expect((await search('crivera', {}, token)).body.results).toEqual([]);
      expect((await search('ashlee@shop.test', {}, token)).body.results).toEqual([]);
    }
  });

  it('orders exact unique_username, exact username, then partial unique_username, username, e-mail', async () => {
    const answer = expectShape(paged(listedUser), (await search('rivera')).body);
    expect(names(answer.results)).toEqual([
      'Alex Moreno',
      'Rivera',
      'Ros Banner',
      'Eli Rivera',
      'Dana Rivera-Smith',
      'Chris Ives',
    ]);
    expect(answer).toMatchObject({ search: 'rivera', totalResults: 6, moreResults: false, offset: 0, limit: 20 });
  });

  it('puts an exact e-mail before partial matches, ignoring case', async () => {
    const answer = (await search('LEE@shop.TEST')).body;
    expect(names(answer.results)).toEqual(['Lee Park', 'Lee Old', 'Ash']);
  });

  it('breaks ties within a rule by userid', async () => {
    const answer = (await search('shop.test', { limit: 200 })).body;
    const ids = answer.results.map((user: { userid: number }) => user.userid);
    // Every rival matches by partial e-mail only, except the one whose unique_username holds the text.
    expect(answer.results[0].username).toBe('Lee Old');
    expect(ids.slice(1)).toEqual([...ids.slice(1)].sort((a: number, b: number) => a - b));
  });

  it('leaves out users without a unique username with uniqueOnly', async () => {
    const answer = (await search('rivera', { uniqueOnly: 'true' })).body;
    expect(names(answer.results)).not.toContain('Eli Rivera');
    expect(answer.totalResults).toBe(5);
    expectError(await search('rivera', { uniqueOnly: 'perhaps' }), 422, 'uniqueOnly');
  });

  it('finds a user by userid', async () => {
    const answer = (await search(String(tech.userid))).body;
    expect(answer.results.map((user: { userid: number }) => user.userid)).toEqual([tech.userid]);
    expect((await search('99999')).body.results).toEqual([]);
  });

  it('pages with limit and offset, and says when there is more', async () => {
    const first = (await search('rivera', { limit: 1 })).body;
    expect(first).toMatchObject({ limit: 1, offset: 0, totalResults: 6, moreResults: true });
    expect(names(first.results)).toEqual(['Alex Moreno']);
    const last = (await search('rivera', { limit: 2, offset: 4 })).body;
    expect(names(last.results)).toEqual(['Dana Rivera-Smith', 'Chris Ives']);
    expect(last.moreResults).toBe(false);
    const past = (await search('rivera', { offset: 6 })).body;
    expect(past).toMatchObject({ results: [], moreResults: false, totalResults: 6 });
    expect((await search('rivera', { limit: 200 })).body.results).toHaveLength(6);
    expectError(await search('rivera', { limit: 201 }), 422, 'limit');
  });

  it('treats LIKE wildcards in the search as plain text', async () => {
    expect((await search('%')).body.results).toEqual([]);
    expect((await search('_')).body.results).toEqual([]);
  });
});

describe('GET /users/{userid}', () => {
  it('answers one user, and 404 for an unknown or malformed id', async () => {
    const answer = await api(site, 'GET', `/users/${author.userid}`);
    expect(expectShape(listedUser, answer.body)).toMatchObject({ userid: author.userid, privileges: ['Author'] });
    expectError(await api(site, 'GET', '/users/424242'), 404);
    expectError(await api(site, 'GET', '/users/abc'), 404);
  });
});
