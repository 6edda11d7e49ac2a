import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { always, onPaths, passAll, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// A day-two walk: the site refused the technician's expired token, and the check of what the site offers
// that ran meanwhile heard "members only" (401) for the work log. Signed in again, the app kept that answer
// for UNSETTLED_RETRY_SECONDS (10 minutes): no Sessions, no "Work on this guide", the Sync centre saying
// "Work log: for the site's members only. Sign in to use it." to a signed-in technician, and Sync now did
// not help. A sign-in now makes the next sync ask again. Real HTTP through the fault proxy; the app's clock
// does not move.
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
const nowMs = Date.UTC(2026, 11, 7, 8, 0, 0);
const WORK_LOG_PROBE = /\/api\/2\.0\/work_log\?limit=1$/;

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
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

const workLog = async () => unwrap(await app.services.api.getStatus()).capabilities?.modules.work_log;

describe('what the site offers, after a sign-in', () => {
  it('is asked again at the first sync after the technician signs in, not 10 minutes later', async () => {
    proxy.setSchedule(onPaths(WORK_LOG_PROBE, always({ kind: 'status', status: 401, message: 'Sign in' })));
    expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
    expect(await workLog()).toBe('sign_in');
    const asked = proxy.requestsTo(WORK_LOG_PROBE, 'GET').length;

    proxy.setSchedule(passAll);
    unwrap(
      await app.services.api.switchTechnician({
        email: DEMO_ACCOUNTS.tech1.email,
        password: DEMO_ACCOUNTS.tech1.password,
      }),
    );
    expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
    expect(proxy.requestsTo(WORK_LOG_PROBE, 'GET').length).toBe(asked + 1);
    expect(await workLog()).toBe('offered');
  });
});
