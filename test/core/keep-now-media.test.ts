import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { clearFavorites, startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { siteHttp } from '../../electron/core/api/http.ts';

// Issue 29: a guide kept now ("Keep offline", or opened) asks for its zoom pictures together with the
// pictures its steps show, not one round trip later. Read from the requests over real HTTP: the step
// pictures' answers are held until a zoom picture has been asked for (or 10 s, after which the test fails).
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
const asked: string[] = [];
let zoomAsked: () => void = () => {};
const firstZoom = new Promise<void>((resolve) => (zoomAsked = resolve));
const zoomAskedWhileHeld: string[] = [];
let held = 0;

const variant = (url: string): string => new URL(url).pathname.split('.').pop() ?? '';

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  // Favourites are kept whole whatever the scope: tech1 has none here, so the scope alone decides.
  await clearFavorites(site, 'tech1');
  app = makeServices(undefined, {
    http: async (target, init) => {
      const url = target.href;
      asked.push(url);
      if (variant(url) === 'large') {
        if (held > 0) zoomAskedWhileHeld.push(url);
        zoomAsked();
      }
      if (variant(url) === 'standard') {
        held++;
        await Promise.race([firstZoom, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        held--;
      }
      return siteHttp(target, init);
    },
  });
  unwrap(
    await app.services.api.signIn({
      siteUrl: site.url,
      email: DEMO_ACCOUNTS.tech1.email,
      password: DEMO_ACCOUNTS.tech1.password,
    }),
  );
  // Only the summaries: a scope of no guide, so the guide kept below is not stored yet.
  unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: [] }));
  await app.services.api.syncNow();
}, 60_000);
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

describe('a guide kept now', () => {
  it('asks for its zoom pictures while the pictures its steps show are still on their way', async () => {
    const guideid = (site.db.prepare('SELECT min(guideid) AS id FROM guides').get() as { id: number }).id;
    asked.length = 0;
    const kept = unwrap(await app.services.api.keepGuideOffline(guideid));
    expect(kept.stored).toBe(true);
    expect(kept.mediaPending).toBe(0);
    expect(asked.some((url) => variant(url) === 'standard')).toBe(true);
    expect(zoomAskedWhileHeld.length).toBeGreaterThan(0);
  }, 60_000);
});
