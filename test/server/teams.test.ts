import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_TEAM } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { api, call, expectError, expectShape, signInAll, startTestSite, type SignedIn } from './helpers.ts';
import { listedUser, teamSummary } from './schemas.ts';

// Left out of the run's request check against iFixit's description (server/testing/request-check.ts).
const UNCHECKED = {
  uncheckedBecause:
    "the seed's team endpoints, beyond iFixit's description and never asked by the client, and their refusals",
};

let site: RunningSite;
let admin: SignedIn;
let author: SignedIn;
let tech1: SignedIn;
let tech2: SignedIn;
const members = z.array(listedUser);
const teams = z.array(teamSummary);

const setClock = (now: number | null) => call('POST', `${site.url}/__test/clock`, { json: { now } });
const createTeam = (body: unknown, token = admin.token) => api(site, 'POST', '/teams', { token, json: body });

beforeAll(async () => {
  site = await startTestSite(UNCHECKED);
  ({ admin, author, tech1, tech2 } = await signInAll(site));
});
afterAll(() => site.close());

describe('POST /teams', () => {
  it('creates a team for an admin: 201 with its summary, the owner a member', async () => {
    const answer = await createTeam({ name: 'Night Shift', owner: author.userid, members: [tech2.userid] });
    expect(answer.status).toBe(201);
    const team = expectShape(teamSummary, answer.body);
    expect(team).toMatchObject({ name: 'Night Shift', owner: author.userid, member_count: 2 });
    const roster = (await api(site, 'GET', `/teams/${team.teamid}`)).body;
    expect(roster.map((user: { userid: number }) => user.userid).sort()).toEqual([author.userid, tech2.userid].sort());
  });

  it('is for admins only', async () => {
    expectError(await createTeam({ name: 'Rogue', owner: tech1.userid }, tech1.token), 403);
    expectError(await api(site, 'POST', '/teams', { json: { name: 'Rogue', owner: tech1.userid } }), 401);
  });

  it('names the field it refuses', async () => {
    expectError(await createTeam({ owner: admin.userid }), 422, 'name', 'missing_field');
    expectError(await createTeam({ name: 'No owner' }), 422, 'owner', 'missing_field');
    expectError(await createTeam({ name: 'Ghost', owner: 9999 }), 422, 'owner', 'invalid_value');
    expectError(
      await createTeam({ name: 'Ghosts', owner: admin.userid, members: [tech1.userid, 9999] }),
      422,
      'members[1]',
    );
    expectError(await createTeam({ name: 'Odd', owner: admin.userid, privacy: 'secret' }), 422, 'privacy');
    expectError(await api(site, 'POST', '/teams', { token: admin.token, body: 'name=x' }), 400);
  });
});

describe('GET /teams and attributes', () => {
  it('lists team summaries by teamid, ASC by default, DESC on request, paged', async () => {
    const asc = expectShape(teams, (await api(site, 'GET', '/teams', { query: { limit: 200 } })).body);
    expect(asc.length).toBeGreaterThanOrEqual(2);
    expect(asc[0]).toMatchObject({ name: DEMO_TEAM.name, member_count: 2 });
    const desc = (await api(site, 'GET', '/teams', { query: { order: 'desc', limit: 200 } })).body;
    expect(desc).toEqual([...asc].reverse());
    expect((await api(site, 'GET', '/teams', { query: { limit: 1, offset: 1 } })).body).toEqual([asc[1]]);
    expect((await api(site, 'GET', '/teams', { query: { offset: asc.length } })).body).toEqual([]);
    expectError(await api(site, 'GET', '/teams', { query: { limit: 0 } }), 422, 'limit');
  });

  it('sums the reputation of the members', async () => {
    const crew = (await api(site, 'GET', '/teams', { query: { limit: 1 } })).body[0];
    const roster = (await api(site, 'GET', `/teams/${crew.teamid}`)).body as { reputation: number }[];
    expect(crew.reputation).toBe(roster.reduce((sum, user) => sum + user.reputation, 0));
  });

  it('filters by newMemberSince: only teams someone joined on or after it', async () => {
    await setClock(1_900_000_000);
    const team = (await createTeam({ name: 'Late Joiners', owner: admin.userid })).body;
    await setClock(null);
    const since = (await api(site, 'GET', '/teams', { query: { newMemberSince: 1_900_000_000, limit: 200 } })).body;
    expect(since.map((each: { teamid: number }) => each.teamid)).toEqual([team.teamid]);
    expect((await api(site, 'GET', '/teams', { query: { newMemberSince: 1_900_000_001 } })).body).toEqual([]);
    expectError(await api(site, 'GET', '/teams', { query: { newMemberSince: 'soon' } }), 422, 'newMemberSince');
  });

  it('shows a private team only to its members and admins', async () => {
    const secret = (
      await createTeam({ name: 'Audit Board', owner: admin.userid, privacy: 'private', members: [tech1.userid] })
    ).body;
    const seen = async (token?: string) =>
      ((await api(site, 'GET', '/teams', { token, query: { limit: 200 } })).body as { teamid: number }[]).some(
        (team) => team.teamid === secret.teamid,
      );
    expect(await seen(admin.token)).toBe(true);
    expect(await seen(tech1.token)).toBe(true);
    expect(await seen(tech2.token)).toBe(false);
    expect(await seen()).toBe(false);
    expectError(await api(site, 'GET', `/teams/${secret.teamid}/attributes`, { token: tech2.token }), 404);
    expect((await api(site, 'GET', `/teams/${secret.teamid}/attributes`, { token: tech1.token })).status).toBe(200);
  });

  it('answers the attributes of one team, 404 for an unknown one', async () => {
    const crew = (await api(site, 'GET', '/teams', { query: { limit: 1 } })).body[0];
    const attributes = expectShape(teamSummary, (await api(site, 'GET', `/teams/${crew.teamid}/attributes`)).body);
    expect(attributes).toEqual(crew);
    expectError(await api(site, 'GET', '/teams/9999/attributes'), 404);
    expectError(await api(site, 'GET', '/teams/9999'), 404);
  });
});

describe('team members', () => {
  let teamid: number;
  beforeAll(async () => {
    teamid = (await createTeam({ name: 'Rotating Crew', owner: tech1.userid })).body.teamid;
  });

  it('lists members by userid, ASC by default and DESC on request', async () => {
    await api(site, 'PATCH', `/teams/${teamid}/users`, {
      token: tech1.token,
      json: { add_userids: [admin.userid, tech2.userid] },
    });
    const asc = expectShape(members, (await api(site, 'GET', `/teams/${teamid}`)).body).map((user) => user.userid);
    expect(asc).toEqual([admin.userid, tech1.userid, tech2.userid].sort((a, b) => a - b));
    const desc = (await api(site, 'GET', `/teams/${teamid}`, { query: { order: 'DESC' } })).body.map(
      (user: { userid: number }) => user.userid,
    );
    expect(desc).toEqual([...asc].reverse());
    expectError(await api(site, 'GET', `/teams/${teamid}`, { query: { order: 'up' } }), 422, 'order');
  });

  it('adds and removes in one PATCH by the owner and answers the members', async () => {
    const answer = await api(site, 'PATCH', `/teams/${teamid}/users`, {
      token: tech1.token,
      json: { add_userids: [author.userid], remove_userids: [admin.userid] },
    });
    expect(answer.status).toBe(200);
    const ids = expectShape(members, answer.body).map((user) => user.userid);
    expect(ids).toContain(author.userid);
    expect(ids).not.toContain(admin.userid);
    expect((await api(site, 'GET', `/users/${author.userid}`)).body.teams).toContain(teamid);
  });

  it('needs at least one of add_userids and remove_userids, and real users', async () => {
    expectError(
      await api(site, 'PATCH', `/teams/${teamid}/users`, { token: tech1.token, json: {} }),
      422,
      'add_userids',
      'missing_field',
    );
    expectError(
      await api(site, 'PATCH', `/teams/${teamid}/users`, { token: tech1.token, json: { add_userids: [9999] } }),
      422,
      'add_userids[0]',
    );
    expectError(
      await api(site, 'PATCH', `/teams/${teamid}/users`, { token: tech1.token, json: { remove_userids: 'all' } }),
      422,
      'remove_userids',
    );
  });

  it('lets only the owner or an admin change members', async () => {
    expectError(
      await api(site, 'PATCH', `/teams/${teamid}/users`, { token: tech2.token, json: { add_userids: [admin.userid] } }),
      403,
    );
    expectError(await api(site, 'PATCH', `/teams/${teamid}/users`, { json: { add_userids: [admin.userid] } }), 401);
    expect(
      (
        await api(site, 'PATCH', `/teams/${teamid}/users`, {
          token: admin.token,
          json: { add_userids: [admin.userid] },
        })
      ).status,
    ).toBe(200);
    expectError(
      await api(site, 'PATCH', '/teams/9999/users', { token: admin.token, json: { add_userids: [admin.userid] } }),
      404,
    );
  });

  it('removes one member with DELETE: the owner removes others, anyone may leave', async () => {
    expectError(await api(site, 'DELETE', `/teams/${teamid}/users/${author.userid}`, { token: tech2.token }), 403);
    const removed = await api(site, 'DELETE', `/teams/${teamid}/users/${author.userid}`, { token: tech1.token });
    expect(removed.status).toBe(200);
    expect(expectShape(members, removed.body).map((user) => user.userid)).not.toContain(author.userid);
    const left = await api(site, 'DELETE', `/teams/${teamid}/users/${tech2.userid}`, { token: tech2.token });
    expect(left.body.map((user: { userid: number }) => user.userid)).not.toContain(tech2.userid);
    expectError(await api(site, 'DELETE', `/teams/${teamid}/users/${tech2.userid}`, { token: tech1.token }), 404);
  });

  it('records each applied change in the audit log', async () => {
    const audit = (await call('GET', `${site.url}/__test/audit`, { query: { entity: 'team' } })).body as {
      entity_id: string;
      method: string;
    }[];
    const changes = audit.filter((entry) => entry.entity_id === String(teamid)).map((entry) => entry.method);
    expect(changes).toEqual(['POST', 'PATCH', 'PATCH', 'PATCH', 'DELETE', 'DELETE']);
  });
});
