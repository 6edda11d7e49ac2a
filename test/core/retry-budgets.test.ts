import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_BUDGETS } from '../../electron/core/api/retry.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { always, onPaths, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { api, clearFavorites, startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// Issue 27: one layer retries each failure (RETRY_BUDGETS). A guide whose every request fails is asked as
// often as the one layer that owns that failure allows, never that count times another layer's: counted
// at a real site behind the fault proxy, over real HTTP.
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices> | undefined;
let guideid: number;

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port }, maxStallMs: 400, upstreamTimeoutMs: 5_000 });
  const listed = (await api(site, 'GET', '/guides', { query: { limit: 1 } })).body as { guideid: number }[];
  guideid = listed[0]!.guideid;
  // tech1's favourites are kept whole whatever the scope, and one of them needs this guide first: without
  // them the guide is asked for itself alone, so the count is one layer's budget and nothing else.
  await clearFavorites(site, 'tech1');
});
afterEach(async () => {
  await app?.dispose();
  app = undefined;
  proxy.passAll();
  proxy.clearLog();
});
afterAll(async () => {
  await proxy?.close();
  await site?.close();
});

/** A fresh client keeping only the one guide, whose `GET /guides/{id}` then always meets `fault`. */
async function syncWithGuideFailing(fault: Parameters<typeof always>[0]): Promise<number> {
  app = makeServices();
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await app.services.api.signIn({ siteUrl: proxy.url, email, password }));
  unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
  const path = new RegExp(`^/api/2\\.0/guides/${guideid}(\\?|$)`);
  proxy.clearLog();
  proxy.setSchedule(onPaths(path, always(fault), 'GET'));
  const result = unwrap(await app.services.api.syncNow());
  expect(result.status).toBe('failed');
  return proxy.requestsTo(path, 'GET').length;
}

describe('retry budgets', () => {
  it('a guide whose connection is reset each time is asked by the transport alone', async () => {
    const asked = await syncWithGuideFailing({ kind: 'reset' });
    expect(asked).toBe(1 + RETRY_BUDGETS.resetReads);
  });

  it('a guide the site keeps calling busy is waited out by the patient transport alone', async () => {
    const asked = await syncWithGuideFailing({ kind: 'status', status: 429, retryAfter: 0 });
    expect(asked).toBe(1 + RETRY_BUDGETS.busyWaits);
  });

  it('a guide the site fails (500) is asked once more by the guides phase', async () => {
    const asked = await syncWithGuideFailing({ kind: 'status', status: 500 });
    expect(asked).toBe(1 + RETRY_BUDGETS.guideRetries);
  });
});
