import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { verifyPassword } from '../../server/http/auth.ts';
import type { RunningSite } from '../../server/site.ts';
import { DOCUMENTED_PASSWORD_HASH } from '../../server/users/seed.ts';
import { api, expectError, expectShape, signIn, startTestSite } from './helpers.ts';
import { token as tokenShape, user as userShape } from './schemas.ts';

// Left out of the run's request check against iFixit's description (server/testing/request-check.ts).
const UNCHECKED = {
  uncheckedBecause: 'the refusals of sign-in: bodies without an e-mail, a password or any JSON at all, on purpose',
};

let site: RunningSite;
beforeAll(async () => {
  site = await startTestSite(UNCHECKED);
});
afterAll(() => site.close());

describe('POST /user/token', () => {
  it('signs a demo account in with 201, a token and the profile', async () => {
    const answer = await api(site, 'POST', '/user/token', {
      json: { email: 'author@demo.test', password: 'fieldguide' },
    });
    expect(answer.status).toBe(201);
    const body = expectShape(tokenShape, answer.body);
    expect(body).toMatchObject({
      username: DEMO_ACCOUNTS.author.username,
      unique_username: DEMO_ACCOUNTS.author.unique_username,
      privileges: ['Author'],
      teams: [],
    });
  });

  it('accepts the e-mail in any case and gives a new token each time', async () => {
    const first = await signIn(site, { email: 'TECH1@demo.test', password: 'fieldguide' });
    const second = await signIn(site, 'tech1');
    expect(first.userid).toBe(second.userid);
    expect(first.token).not.toBe(second.token);
  });

  it('refuses a wrong password and an unknown e-mail alike with 401 "Invalid login"', async () => {
    const wrong = await api(site, 'POST', '/user/token', { json: { email: 'admin@demo.test', password: 'nope' } });
    const unknown = await api(site, 'POST', '/user/token', {
      json: { email: 'ghost@demo.test', password: 'fieldguide' },
    });
    for (const answer of [wrong, unknown]) {
      expectError(answer, 401);
      expect(answer.body).toEqual({ message: 'Invalid login' });
    }
  });

  it('names a missing or mistyped field with 422', async () => {
    expectError(
      await api(site, 'POST', '/user/token', { json: { email: 'admin@demo.test' } }),
      422,
      'password',
      'missing_field',
    );
    expectError(
      await api(site, 'POST', '/user/token', { json: { password: 'fieldguide' } }),
      422,
      'email',
      'missing_field',
    );
    expectError(
      await api(site, 'POST', '/user/token', { json: { email: 7, password: 'fieldguide' } }),
      422,
      'email',
      'invalid_value',
    );
    expectError(await api(site, 'POST', '/user/token'), 422, 'email');
  });
});

describe('GET /user', () => {
  it('answers the signed-in user, teams included', async () => {
    const tech = await signIn(site, 'tech2');
    const answer = await api(site, 'GET', '/user', { token: tech.token });
    expect(answer.status).toBe(200);
    const body = expectShape(userShape, answer.body);
    expect(body).toMatchObject({ userid: tech.userid, username: DEMO_ACCOUNTS.tech2.username, privileges: ['User'] });
    expect(body.teams).toHaveLength(1);
    expect(body.url.startsWith(site.url)).toBe(true);
  });

  it('puts both technicians in one team', async () => {
    const one = await api(site, 'GET', '/user', { token: (await signIn(site, 'tech1')).token });
    const two = await api(site, 'GET', '/user', { token: (await signIn(site, 'tech2')).token });
    expect(one.body.teams).toEqual(two.body.teams);
  });
});

describe('DELETE /user/token', () => {
  it('signs out: 204, then that token is refused and other tokens still work', async () => {
    const kept = await signIn(site, 'admin');
    const dropped = await signIn(site, 'admin');
    const answer = await api(site, 'DELETE', '/user/token', { token: dropped.token });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expectError(await api(site, 'GET', '/user', { token: dropped.token }), 401);
    expectError(await api(site, 'DELETE', '/user/token', { token: dropped.token }), 401);
    expect((await api(site, 'GET', '/user', { token: kept.token })).status).toBe(200);
  });

  it('needs a token', async () => {
    expectError(await api(site, 'DELETE', '/user/token'), 401);
  });
});

describe('the demo accounts', () => {
  it('are seeded with a kept hash of the documented password that verifies, and no other password', async () => {
    expect(await verifyPassword(DEMO_ACCOUNTS.tech1.password, DOCUMENTED_PASSWORD_HASH)).toBe(true);
    expect(await verifyPassword('fieldguide!', DOCUMENTED_PASSWORD_HASH)).toBe(false);
    expect(Object.values(DEMO_ACCOUNTS).every((account) => account.password === 'fieldguide')).toBe(true);
  });
});
