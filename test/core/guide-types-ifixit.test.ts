import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { DEMO_APP_ID } from '../../server/http/dialects.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { GUIDE_TYPES } from '../../src/lib/guide-content.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { api, signIn } from '../server/helpers.ts';

// A how-to guide (a type iFixit's sites have: its OpenAPI `GuideType`) synced from a site in iFixit's
// dialect, over real HTTP: kept, listed under its type, and a type the library's filter offers.

const BELT = DEMO_GUIDES.findIndex((guide) => guide.key === 'compressor-belt') + 1;
let site: RunningSite;
let app: ReturnType<typeof makeServices>;

beforeAll(async () => {
  site = await startDemoSite({ dialect: 'ifixit' });
  app = makeServices();
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

describe('a how-to guide', () => {
  it('is kept, listed under its type, and offered by the type filter', async () => {
    const { token } = await signIn(site, 'admin');
    const revisionid = (await api(site, 'GET', `/guides/${BELT}`)).body.revisionid;
    const patched = await api(site, 'PATCH', `/guides/${BELT}`, {
      token,
      query: { revisionid },
      json: { type: 'how-to' },
    });
    expect(patched.status, patched.text).toBe(200);

    const { email, password } = DEMO_ACCOUNTS.tech1;
    const services = app.services.api;
    unwrap(await services.signIn({ siteUrl: site.url, email, password, appId: DEMO_APP_ID }));
    expect(unwrap(await services.syncNow()).error).toBeNull();
    expect(unwrap(await services.getGuide(BELT)).type).toBe('how-to');
    const listed = unwrap(await services.listGuides({ type: 'how-to' })).items;
    expect(listed.map((guide) => guide.guideid)).toEqual([BELT]);
    const types = new Set(unwrap(await services.listGuides({ limit: 100 })).items.map((guide) => guide.type));
    for (const type of types) expect(GUIDE_TYPES).toContain(type);
  });
});
