import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { mulberry32, PASS, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { clearFavorites } from '../server/helpers.ts';
import { allLocalGuides, mediaOf, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// Issue 15, acceptance 4: through the fault proxy, 429 with `Retry-After: 2` on a tenth of the requests.
// The sync completes, and no URL is asked again sooner than it was told (the proxy's schedule notes when
// each request arrived; a 429 is answered at once, without the site).
let site: RunningSite;
let proxy: FaultProxy;
const arrivals: { key: string; at: number; refused: boolean }[] = [];

beforeAll(async () => {
  site = await startDemoSite({});
  // The scope's three guides alone: tech1's favourites (kept whole whatever the scope) are not synced here.
  await clearFavorites(site, 'tech1');
  proxy = await startFaultProxy({ target: { port: site.port } });
});
afterAll(async () => {
  await proxy?.close();
  await site?.close();
});

describe('a busy site', () => {
  it('is waited out as told: the sync completes and never asks sooner', { timeout: 90_000 }, async () => {
    const app = makeServices();
    try {
      unwrap(
        await app.services.api.signIn({
          siteUrl: proxy.url,
          email: DEMO_ACCOUNTS.tech1.email,
          password: DEMO_ACCOUNTS.tech1.password,
        }),
      );
      const listed = (await (await fetch(`${site.apiUrl}/guides?limit=200`)).json()) as { guideid: number }[];
      unwrap(
        await app.services.api.setOfflineScope({
          mode: 'selected',
          categories: [],
          guideids: listed.slice(0, 3).map((g) => g.guideid),
        }),
      );
      const random = mulberry32(15);
      proxy.setSchedule(({ method, path }) => {
        // The app's reachability checks (GET /user without a token) are not the sync's requests.
        if (path === '/api/2.0/user') return PASS;
        const refused = random() < 0.1;
        arrivals.push({ key: `${method} ${path}`, at: performance.now(), refused });
        return refused ? { kind: 'status', status: 429, message: 'Slow down', retryAfter: 2 } : PASS;
      });
      const outcome = unwrap(await app.services.api.syncNow());
      expect(outcome.status, outcome.error?.message).toBe('complete');
      const refusals = arrivals.filter((a) => a.refused);
      expect(refusals.length).toBeGreaterThan(0);
      // Each refused URL was asked again, and not before its two seconds were over.
      for (const refusal of refusals) {
        const next = arrivals.find((a) => a.key === refusal.key && a.at > refusal.at);
        expect(next, refusal.key).toBeDefined();
        expect(next!.at - refusal.at, refusal.key).toBeGreaterThanOrEqual(2000);
      }
      // Everything in scope is on this computer.
      for (const { guideid, offline } of await allLocalGuides(app.services.api)) {
        if (offline !== 'full') continue;
        for (const url of mediaOf(unwrap(await app.services.api.getGuide(guideid))))
          expect(app.services.resolveMedia(url), url).not.toBeNull();
      }
    } finally {
      proxy.passAll();
      await app.dispose();
    }
  });
});
