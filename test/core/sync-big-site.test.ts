import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_SYNC_LIMIT } from '../../electron/core/sync/first-scope.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { generateSite } from '../../server/generator/generator.ts';
import { startSite, type RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { siteHttp } from '../../electron/core/api/http.ts';

// Issue 15, big sites: a site with more guides than a first sync should take whole. Its summaries are
// listed and stored (searchable); no whole guide is downloaded until the technician chooses what to keep,
// told how many guides the site has and how many each category holds.
// About 5 % of generated guides are private, which a technician's listing leaves out.
const GUIDES = FIRST_SYNC_LIMIT + 300;
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
const wholeGuideRequests: string[] = [];

beforeAll(async () => {
  site = await startSite({ seed: (db) => void generateSite(db, { guides: GUIDES, steps: 1, images: 0, seed: 5 }) });
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

describe('a first sync of a site bigger than a first sync takes', () => {
  it(
    'stores every summary, downloads no whole guide, and asks the technician to choose',
    { timeout: 120_000 },
    async () => {
      expect(unwrap(await app.services.api.syncNow())).toMatchObject({
        status: 'complete',
        changed: expect.any(Number),
      });
      expect(wholeGuideRequests).toEqual([]);
      const state = unwrap(await app.services.api.getSyncState());
      expect(state.guides.offline).toBe(0);
      expect(state.guides.total).toBeGreaterThan(FIRST_SYNC_LIMIT);
      expect(state.scopeChoice).toEqual({ guides: state.guides.total, limit: FIRST_SYNC_LIMIT });
      // The sizes it knows: how many guides each category holds, and every summary is searchable.
      const categories = unwrap(await app.services.api.getCategories());
      expect(categories.reduce((sum, c) => sum + c.guideCount, 0)).toBeGreaterThan(FIRST_SYNC_LIMIT - 200);
      const page = unwrap(await app.services.api.listGuides({ limit: 5 }));
      expect(page.items.every((g) => g.offline === 'summary')).toBe(true);
      const word = page.items[0]!.title.split(' ')[0]!;
      expect(unwrap(await app.services.api.search({ text: word, where: 'local', limit: 5 })).total).toBeGreaterThan(0);

      // A second sync still waits for the choice.
      expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
      expect(wholeGuideRequests).toEqual([]);
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
    unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [smallest.name], guideids: [] }));
    expect(unwrap(await app.services.api.getSyncState()).scopeChoice).toBeNull();
    expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
    const state = unwrap(await app.services.api.getSyncState());
    expect(state.guides.offline).toBe(smallest.guideCount);
    expect(wholeGuideRequests).toHaveLength(smallest.guideCount);
    expect(state.scopeChoice).toBeNull();
  });
});
