import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppApi, GuideDetail } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { allLocalGuides, mediaOf, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { startTestSite } from '../server/helpers.ts';

// The library is the site's and shared by everyone on the laptop; what one technician may not read stays
// hidden from them. An admin syncs the private guides too; a plain technician who signs in next on the
// same laptop cannot list, open, search, start work on or see the pictures of them, and their own sync
// leaves them in place for the admin and the guide's author.
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
let api: AppApi;
let privateGuide: GuideDetail;
let adminTotal: number;

const as = (who: 'admin' | 'author' | 'tech1') =>
  api.switchTechnician({ email: DEMO_ACCOUNTS[who].email, password: DEMO_ACCOUNTS[who].password });

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  const { guideid } = site.db
    .prepare('SELECT guideid FROM guide_revisions WHERE public = 0 ORDER BY guideid LIMIT 1')
    .get() as { guideid: number };
  app = makeServices();
  api = app.services.api;
  unwrap(
    await api.signIn({ siteUrl: site.url, email: DEMO_ACCOUNTS.admin.email, password: DEMO_ACCOUNTS.admin.password }),
  );
  expect(unwrap(await api.syncNow()).status).toBe('complete');
  privateGuide = unwrap(await api.getGuide(guideid));
  adminTotal = unwrap(await api.listGuides({})).total;
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

async function expectHidden(): Promise<void> {
  const { guideid, title } = privateGuide;
  const listed = await allLocalGuides(api);
  expect(listed.map((g) => g.guideid)).not.toContain(guideid);
  expect(listed).toHaveLength(adminTotal - 1);
  expect(unwrap(await api.listGuides({ guideids: [guideid] })).items).toEqual([]);
  expect(await api.getGuide(guideid)).toMatchObject({
    ok: false,
    error: {
      code: 'not_found',
      message: 'This guide is not in the library: the site no longer lists it (deleted, or not shared with you).',
    },
  });
  expect(await api.getGuide(guideid, privateGuide.revisionid)).toMatchObject({
    ok: false,
    error: { code: 'not_found' },
  });
  for (const where of ['local', 'site'] as const) {
    const found = unwrap(await api.search({ text: title, where }));
    expect(
      found.items.map((g) => g.guideid),
      `${where} search`,
    ).not.toContain(guideid);
  }
  const category = (nodes: { name: string; guideCount: number; children: unknown[] }[]): number | undefined => {
    for (const node of nodes) {
      if (node.name === privateGuide.category) return node.guideCount;
      const below = category(node.children as typeof nodes);
      if (below !== undefined) return below;
    }
    return undefined;
  };
  const publicInCategory =
    listed.length === 0 ? 0 : unwrap(await api.listGuides({ category: privateGuide.category })).total;
  expect(category(unwrap(await api.getCategories()))).toBe(publicInCategory);
  expect(await api.startSession({ guideid, workorderid: 'WO-PRIVATE' })).toMatchObject({
    ok: false,
    error: { code: 'not_found' },
  });
  const pictures = mediaOf(privateGuide).filter((url) => !listedUrls.has(url));
  expect(pictures.length).toBeGreaterThan(0);
  for (const url of pictures) expect(app.services.resolveMedia(url), url).toBeNull();
}

/** Media that public guides use too (a shared picture stays served). */
let listedUrls: Set<string>;

describe('private guides on a shared laptop', () => {
  it(
    'an admin synced them; ' +
      'tech1, signed in next on the same laptop, cannot list, open, search or start work on them',
    async () => {
      expect(privateGuide.title).toBe('Set Up a MIG Welder for Mild Steel');
      listedUrls = new Set();
      for (const { guideid } of await allLocalGuides(api)) {
        if (guideid === privateGuide.guideid) continue;
        for (const url of mediaOf(unwrap(await api.getGuide(guideid)))) listedUrls.add(url);
      }
      expect(app.services.resolveMedia(mediaOf(privateGuide).find((url) => !listedUrls.has(url))!)).not.toBeNull();
      expect(unwrap(await as('tech1')).user?.username).toBe(DEMO_ACCOUNTS.tech1.username);
      await expectHidden();
    },
  );

  it(
    "tech1's own sync leaves them in the shared library, " + "where the admin and the guide's author still read them",
    async () => {
      expect(unwrap(await api.syncNow())).toMatchObject({ status: 'complete', deleted: 0 });
      await expectHidden();
      unwrap(await as('author'));
      expect(unwrap(await api.getGuide(privateGuide.guideid)).title).toBe(privateGuide.title);
      expect(
        unwrap(await api.search({ text: privateGuide.title, where: 'local' })).items.map((g) => g.guideid),
      ).toContain(privateGuide.guideid);
      unwrap(await as('admin'));
      expect(unwrap(await api.listGuides({})).total).toBe(adminTotal);
      unwrap(await as('tech1'));
      await expectHidden();
    },
  );
});
