import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppApi } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { clearFavorites, startTestSite } from '../server/helpers.ts';
import { allLocalGuides, mediaOf, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// The storage budget over a real sync of the demo workshop: media no chosen guide needs are kept while
// they fit, evicted least recently used first when the budget shrinks, and the media a chosen guide
// needs are never evicted; a scope that needs more than the budget fails the sync with a clear message.
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
let api: AppApi;
let clockMs = Date.UTC(2026, 10, 1);
const tick = () => (clockMs += 60_000);

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  // Favourites are kept whole whatever the scope: tech1 has none here, so the scope alone decides.
  await clearFavorites(site, 'tech1');
  app = makeServices(undefined, { clock: () => clockMs });
  api = app.services.api;
  unwrap(
    await app.services.api.signIn({
      siteUrl: site.url,
      email: DEMO_ACCOUNTS.tech1.email,
      password: DEMO_ACCOUNTS.tech1.password,
    }),
  );
  // The budget's sums count what the steps show, no zoom variant (picture-quality.test.ts has those).
  unwrap(await api.setPictureQuality('standard'));
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

const bytesOf = (urls: Iterable<string>): number =>
  [...urls].reduce((sum, url) => sum + app.services.resolveMedia(url)!.bytes, 0);
const served = (urls: Iterable<string>) => [...urls].filter((url) => app.services.resolveMedia(url) !== null);

describe('the storage budget', () => {
  it(
    'keeps unneeded media while they fit, ' + 'evicts them least recently used first, never what a chosen guide needs',
    async () => {
      unwrap(await api.syncNow());
      const media = new Map<number, Set<string>>();
      // Guides without prerequisites: a chosen guide's prerequisites are kept whole with it, media and all.
      const alone = new Set<number>();
      for (const { guideid } of await allLocalGuides(api)) {
        const guide = unwrap(await api.getGuide(guideid));
        media.set(guideid, new Set(mediaOf(guide)));
        if (guide.prerequisites.length === 0) alone.add(guideid);
      }
      const withMedia = [...media.entries()].filter(([id, urls]) => urls.size >= 2 && alone.has(id)).map(([id]) => id);
      expect(withMedia.length).toBeGreaterThanOrEqual(3);
      const [kept, older, newer] = withMedia as [number, number, number];
      const keptUrls = media.get(kept)!;
      const newerUrls = new Set([...media.get(newer)!].filter((url) => !keptUrls.has(url)));
      const olderUrls = new Set([...media.get(older)!].filter((url) => !keptUrls.has(url) && !newerUrls.has(url)));
      const others = new Set(
        [...media.values()]
          .flatMap((urls) => [...urls])
          .filter((url) => !keptUrls.has(url) && !newerUrls.has(url) && !olderUrls.has(url)),
      );

      // Only `kept` whole: the others' media are no longer needed, but stay while the budget allows.
      unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [kept] }));
      tick();
      expect(unwrap(await api.syncNow())).toMatchObject({ status: 'complete' });
      expect(served(olderUrls).length).toBe(olderUrls.size);
      tick();
      served(olderUrls); // used a minute after the sync
      tick();
      served(newerUrls); // and these a minute later still

      // Room for what `kept` needs and the most recently used unneeded media: everything else goes.
      const budget = bytesOf(keptUrls) + bytesOf(newerUrls) + 1;
      const state = unwrap(await api.setStorageBudget(budget));
      expect(state.storage.mediaBytes).toBeLessThan(budget);
      expect(served(keptUrls)).toEqual([...keptUrls]);
      expect(served(newerUrls)).toEqual([...newerUrls]);
      expect(served(olderUrls)).toEqual([]);
      expect(served(others)).toEqual([]);

      // A budget below what `kept` needs evicts every unneeded file and none of the needed ones.
      unwrap(await api.setStorageBudget(Math.floor(bytesOf(keptUrls) / 2)));
      expect(served(keptUrls)).toEqual([...keptUrls]);
      expect(served(newerUrls)).toEqual([]);

      // Asking for more than fits: the sync says so, names the way out, and loses nothing it had.
      unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [kept, older] }));
      const refused = unwrap(await api.syncNow());
      expect(refused.status).toBe('failed');
      expect(refused.error?.message).toMatch(
        /need more than the storage budget .*raise the budget or choose fewer guides/,
      );
      expect(served(keptUrls)).toEqual([...keptUrls]);
      expect(unwrap(await api.getGuide(older)).guideid).toBe(older); // the guide itself is stored; its media wait

      unwrap(await api.setStorageBudget(2 * 1024 ** 3));
      expect(unwrap(await api.syncNow())).toMatchObject({ status: 'complete' });
      // What the guide needs now: stored while the budget was short, its video is the smallest encoding.
      const olderNow = mediaOf(unwrap(await api.getGuide(older)));
      expect(served(olderNow)).toEqual(olderNow);
      expect(unwrap(await api.getSyncState()).storage.pendingMedia).toBe(0);
    },
  );
});
