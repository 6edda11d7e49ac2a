import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_SYNC_LIMIT } from '../../electron/core/sync/first-scope.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { generateSite } from '../../server/generator/generator.ts';
import { startSite, type RunningSite } from '../../server/site.ts';
import { api, signIn } from '../server/helpers.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { siteHttp } from '../../electron/core/api/http.ts';
import { startRewriteProxy } from '../helpers/rewrite-proxy.ts';

// Issue 15, big sites: a site with more guides than a first sync should take whole. Its summaries are
// listed and stored (searchable); no whole guide is downloaded until the technician chooses what to keep,
// told how many guides the site has and how many each category holds. Issue 29: the guides the technician
// worked on (the site's work log) are kept whole meanwhile, and stay kept with the categories chosen.
// About 5 % of generated guides are private, which a technician's listing leaves out.
const GUIDES = FIRST_SYNC_LIMIT + 300;
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
const wholeGuideRequests: string[] = [];
/** Guides tech1 worked on, on the site, before this laptop's first sync: newest first. */
let worked: number[];

beforeAll(async () => {
  site = await startSite({ seed: (db) => void generateSite(db, { guides: GUIDES, steps: 1, images: 0, seed: 5 }) });
  const tech1 = await signIn(site, 'tech1');
  const listed = (await api(site, 'GET', '/guides', { query: { limit: 50, offset: 100 } })).body as {
    guideid: number;
  }[];
  worked = [listed[7]!.guideid, listed[3]!.guideid];
  for (const guideid of [...worked].reverse()) {
    const started = await api(site, 'POST', '/work_log', {
      token: tech1.token,
      json: { guideid, workorderid: `WO-${guideid}` },
    });
    expect(started.status).toBe(201);
  }
  app = makeServices(undefined, {
    http: (url, init) => {
      if (/^\/api\/2\.0\/guides\/\d+$/.test(url.pathname)) wholeGuideRequests.push(url.pathname);
      return siteHttp(url, init);
    },
  });
  unwrap(
    await app.services.api.signIn({
      siteUrl: site.url,
      email: DEMO_ACCOUNTS.tech1.email,
      password: DEMO_ACCOUNTS.tech1.password,
    }),
  );
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

/** How each guide is kept here: 'full' or 'summary'. */
async function keptWhole(guideids: number[]): Promise<string[]> {
  const all = new Map((await allLocalGuides(app.services.api)).map((g) => [g.guideid, g.offline]));
  return guideids.map((guideid) => all.get(guideid) ?? 'missing');
}

describe('a first sync of a site bigger than a first sync takes', () => {
  it(
    'stores every summary, downloads whole only the guides the technician worked on, and asks them to choose',
    { timeout: 120_000 },
    async () => {
      expect(unwrap(await app.services.api.syncNow())).toMatchObject({
        status: 'complete',
        changed: expect.any(Number),
      });
      // Whole: only the guides tech1 worked on, newest first in the choice.
      expect(wholeGuideRequests.sort()).toEqual(worked.map((id) => `/api/2.0/guides/${id}`).sort());
      const state = unwrap(await app.services.api.getSyncState());
      expect(state.guides.offline).toBe(worked.length);
      expect(state.guides.total).toBeGreaterThan(FIRST_SYNC_LIMIT);
      expect(state.scopeChoice).toEqual({ guides: state.guides.total, limit: FIRST_SYNC_LIMIT, worked });
      expect(await keptWhole(worked)).toEqual(worked.map(() => 'full'));
      // The sizes it knows: how many guides each category holds, and every summary is searchable.
      const categories = unwrap(await app.services.api.getCategories());
      expect(categories.reduce((sum, c) => sum + c.guideCount, 0)).toBeGreaterThan(FIRST_SYNC_LIMIT - 200);
      const page = unwrap(await app.services.api.listGuides({ limit: 5 }));
      expect(page.items.every((g) => g.offline === 'summary')).toBe(true);
      const word = page.items[0]!.title.split(' ')[0]!;
      expect(unwrap(await app.services.api.search({ text: word, where: 'local', limit: 5 })).total).toBeGreaterThan(0);

      // A second sync still waits for the choice (the guides it kept whole do not make it keep "everything").
      expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
      expect(wholeGuideRequests).toHaveLength(worked.length);
      expect(unwrap(await app.services.api.getSyncState()).guides.offline).toBe(worked.length);
      expect(unwrap(await app.services.api.getSyncState()).scopeChoice).not.toBeNull();
    },
  );

  it('downloads whole only the chosen category, and no longer asks', { timeout: 120_000 }, async () => {
    const smallest = unwrap(await app.services.api.getCategories())
      .flatMap(function all(c): { name: string; guideCount: number; children: unknown[] }[] {
        return [c, ...c.children.flatMap(all)];
      })
      .filter((c) => c.children.length === 0 && c.guideCount > 0)
      .sort((a, b) => a.guideCount - b.guideCount)[0]!;
    // As the sync centre saves it: the categories chosen, and the guides worked on.
    const choice = unwrap(await app.services.api.getSyncState()).scopeChoice!;
    unwrap(
      await app.services.api.setOfflineScope({
        mode: 'selected',
        categories: [smallest.name],
        guideids: choice.worked,
      }),
    );
    expect(unwrap(await app.services.api.getSyncState()).scopeChoice).toBeNull();
    expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
    const state = unwrap(await app.services.api.getSyncState());
    const inSmallest = new Set(
      unwrap(await app.services.api.listGuides({ category: smallest.name, limit: 500 })).items.map((g) => g.guideid),
    );
    const outside = worked.filter((guideid) => !inSmallest.has(guideid)).length;
    expect(state.guides.offline).toBe(smallest.guideCount + outside);
    // The worked guides were fetched by the first sync already, the category's now.
    expect(wholeGuideRequests).toHaveLength(worked.length + smallest.guideCount - (worked.length - outside));
    expect(await keptWhole(worked)).toEqual(worked.map(() => 'full'));
    expect(state.scopeChoice).toBeNull();
  });

  it('forgets the guides worked on when the laptop moves to another site', { timeout: 120_000 }, async () => {
    // Another site with the same library and accounts, which refuses tech1 its work log: the ids tech1
    // worked on name guides there too, but nothing there says tech1 worked on them.
    const other = await startSite({
      seed: (db) => void generateSite(db, { guides: GUIDES, steps: 1, images: 0, seed: 5 }),
    });
    const proxy = await startRewriteProxy(Number(new URL(other.url).port));
    proxy.set(({ method, path }) =>
      method === 'GET' && path.startsWith('/api/2.0/work_log') ? { status: 403, body: '{"message":"no"}' } : null,
    );
    try {
      unwrap(await app.services.api.signOut());
      unwrap(
        await app.services.api.signIn({
          siteUrl: proxy.url,
          email: DEMO_ACCOUNTS.tech1.email,
          password: DEMO_ACCOUNTS.tech1.password,
        }),
      );
      const before = wholeGuideRequests.length;
      expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
      // A first choice again (the scope chosen for the previous site went with it), and nothing kept whole.
      const state = unwrap(await app.services.api.getSyncState());
      expect(state.scopeChoice).toMatchObject({ worked: [] });
      expect(state.guides.offline).toBe(0);
      expect(wholeGuideRequests).toHaveLength(before);
    } finally {
      await proxy.close();
      await other.close();
    }
  });
});
