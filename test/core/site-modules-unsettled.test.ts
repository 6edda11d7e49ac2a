import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { onPaths, passAll, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { UNSETTLED_RETRY_SECONDS } from '../../electron/core/sync/site-modules.ts';

// Issue 15: a module whose probe settles nothing (the site answers 503 to it) stays unknown and the sync
// goes on; the site is asked again once UNSETTLED_RETRY_SECONDS have passed, not at every sync. The
// reference server over real HTTP through the fault proxy; the app's clock is moved, not waited for.
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let nowMs = Date.UTC(2026, 10, 23, 8, 0, 0);

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
  proxy.setSchedule(onPaths(/\/api\/2\.0\/tags(\?|$)/, () => ({ kind: 'status', status: 503, message: 'Busy' })));
  app = makeServices(undefined, { clock: () => nowMs });
  unwrap(
    await app.services.api.signIn({
      siteUrl: proxy.url,
      email: DEMO_ACCOUNTS.tech1.email,
      password: DEMO_ACCOUNTS.tech1.password,
    }),
  );
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

const probes = () => proxy.requestsTo(/\/api\/2\.0\/tags(\?|$)/, 'GET').length;
const sync = async () => expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');

describe('a module the site answers 503 about', () => {
  it('is unknown after the first sync, which completes', async () => {
    await sync();
    expect(probes()).toBe(1);
    expect(unwrap(await app.services.api.getStatus()).capabilities?.modules.tags).toBe('unknown');
  });

  it('is not asked about again by the syncs that follow at once', async () => {
    await sync();
    nowMs += 60_000;
    await sync();
    expect(probes()).toBe(1);
  });

  it('is asked again once the retry time has passed, and settled when the site answers', async () => {
    proxy.setSchedule(passAll);
    nowMs += UNSETTLED_RETRY_SECONDS * 1000;
    await sync();
    expect(probes()).toBe(2);
    expect(unwrap(await app.services.api.getStatus()).capabilities?.modules.tags).toBe('offered');
  });
});
