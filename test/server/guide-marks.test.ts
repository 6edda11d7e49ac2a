import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import type { RunningSite } from '../../server/site.ts';
import { api, expectError, signIn, startTestSite, type SignedIn } from './helpers.ts';

// Issue 30's endpoints as iFixit's OpenAPI 2.0 describes them: the caller's own favourites, every one,
// newest first, and marking a guide completed per user.

const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;

describe('favourites and completions of the signed-in user', () => {
  let site: RunningSite;
  let ifixit: RunningSite;
  let tech1: SignedIn;
  let tech2: SignedIn;
  let ifixitTech: SignedIn;
  beforeAll(async () => {
    [site, ifixit] = await Promise.all([
      startTestSite({ demo: true }),
      startTestSite({ demo: true, dialect: 'ifixit' }),
    ]);
    [tech1, tech2, ifixitTech] = await Promise.all([
      signIn(site, 'tech1'),
      signIn(site, 'tech2'),
      signIn(ifixit, 'tech1'),
    ]);
  });
  afterAll(async () => {
    await Promise.all([site?.close(), ifixit?.close()]);
  });

  const favorites = async (s: RunningSite, who: SignedIn) =>
    (await api(s, 'GET', '/user/favorites/guides', { token: who.token })).body as unknown[];

  it('lists every favourite, the latest first, in each dialect', async () => {
    const before = (await favorites(site, tech1)) as { guideid: number }[];
    expect(before.length).toBeGreaterThan(0);
    expect((await api(site, 'PUT', `/user/favorites/guides/${id('lathe-chuck')}`, { token: tech1.token })).status).toBe(
      204,
    );
    const after = (await favorites(site, tech1)) as { guideid: number }[];
    expect(after[0]!.guideid).toBe(id('lathe-chuck'));
    expect(after).toHaveLength(before.length + 1);

    await api(ifixit, 'PUT', `/user/favorites/guides/${id('lathe-chuck')}`, { token: ifixitTech.token });
    const dated = (await favorites(ifixit, ifixitTech)) as { date: number; guide: { guideid: number } }[];
    expect(dated[0]!.guide.guideid).toBe(id('lathe-chuck'));
    expect(typeof dated[0]!.date).toBe('number');
    expectError(await api(site, 'GET', '/user/favorites/guides'), 401);
  });

  it('marks a guide completed for the caller only, idempotently, and takes it back', async () => {
    const guide = id('lathe-chuck');
    const done = async (who: SignedIn) =>
      ((await api(site, 'GET', '/user/completions', { token: who.token })).body as { guideid: number }[]).map(
        (g) => g.guideid,
      );
    for (let i = 0; i < 2; i++) {
      expect((await api(site, 'PUT', `/guides/${guide}/completed`, { token: tech2.token })).status).toBe(204);
    }
    expect(await done(tech2)).toContain(guide);
    expect(await done(tech1)).not.toContain(guide);
    for (let i = 0; i < 2; i++) {
      expect((await api(site, 'DELETE', `/guides/${guide}/completed`, { token: tech2.token })).status).toBe(204);
    }
    expect(await done(tech2)).not.toContain(guide);
    expectError(await api(site, 'PUT', `/guides/${guide}/completed`), 401);
    expectError(await api(site, 'PUT', '/guides/9999/completed', { token: tech2.token }), 404);
  });
});
