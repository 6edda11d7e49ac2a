import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RunningSite } from '../../server/site.ts';
import { api, expectError, expectShape, signInAll, startTestSite, type SignedIn } from './helpers.ts';
import { flag } from './schemas.ts';

let site: RunningSite;
let admin: SignedIn;
let author: SignedIn;
let tech: SignedIn;

beforeAll(async () => {
  site = await startTestSite();
  ({ admin, author, tech1: tech } = await signInAll(site));
});
afterAll(() => site.close());

describe('GET /user/flags', () => {
  const flags = z.object({ guide: z.record(z.string(), flag) });

  it('gives each privilege the flags it may set', async () => {
    const forAdmin = expectShape(flags, (await api(site, 'GET', '/user/flags', { token: admin.token })).body);
    const forAuthor = expectShape(flags, (await api(site, 'GET', '/user/flags', { token: author.token })).body);
    const forTech = expectShape(flags, (await api(site, 'GET', '/user/flags', { token: tech.token })).body);
    expect(Object.keys(forAdmin.guide)).toEqual(expect.arrayContaining(['GUIDE_STARRED', 'GUIDE_DELETE', 'DANGER']));
    expect(Object.keys(forAuthor.guide)).toContain('DANGER');
    expect(Object.keys(forAuthor.guide)).not.toContain('GUIDE_STARRED');
    expect(forTech.guide).toEqual({});
    for (const [id, value] of Object.entries(forAdmin.guide)) expect(value.flagid).toBe(id);
  });

  it('needs a signed-in user', async () => {
    expectError(await api(site, 'GET', '/user/flags'), 401);
  });
});
