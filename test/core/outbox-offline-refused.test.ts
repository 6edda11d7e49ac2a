import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { always, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { api, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { syncedOverProxy, type makeServices } from '../helpers/services.ts';
import { guideWithForms } from '../helpers/worklog.ts';

// A laptop off the network: the site's address refuses connections (nothing listens), so no request
// left. Once back, the work is sent as it is, without first looking on the site for what may have landed.
// A connection reset on the way is another matter: the request may have reached the site, and a start
// is looked for before it is sent again.
/** The list of the work log, as a start that may have landed is looked for (GET /work_log?workorderid=…). */
const LOOK_FOR_START = /^\/api\/2\.0\/work_log\?/;

let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ site, proxy, app, close } = await syncedOverProxy());
});
afterAll(async () => {
  await close?.();
  // The proxy started again on its port by the first case (closing is idempotent).
  await proxy?.close();
});

/** Work taken while the site cannot be reached, tried (and refused or reset) before it comes back. */
async function workOffline(workorderid: string): Promise<string> {
  const { guide } = await guideWithForms(app.services.api);
  const before = unwrap(await app.services.api.getOutbox()).summary.pending;
  const session = unwrap(await app.services.api.startSession({ guideid: guide.guideid, workorderid }));
  unwrap(await app.services.api.transitionSession({ sessionId: session.id, transition: 'pause' }));
  unwrap(await app.services.api.transitionSession({ sessionId: session.id, transition: 'resume' }));
  // Tried at once, and failed: the start waits with its outcome as the failure tells it.
  expect(unwrap(await app.services.api.flushOutbox()).pending).toBe(before + 3);
  return session.id;
}

/** A few turns for this process to see the connections the proxy closed. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function entriesOnSite(workorderid: string): Promise<unknown[]> {
  const tech = await signIn(site, 'tech1');
  const page = (await api(site, 'GET', `/work_log?workorderid=${workorderid}&limit=200`, { token: tech.token }))
    .body as { results: { workorderid: string }[] };
  return page.results.filter((entry) => entry.workorderid === workorderid);
}

describe('work taken while the site could not be reached', () => {
  it('refused (nothing listening): sent once back, with no look for what may have landed', async () => {
    const port = proxy.port;
    await proxy.close();
    // The laptop's kept-alive connections end with it (as they do long before a laptop is back in the
    // workshop): a request on one that was cut may have left, and is another case (below).
    await settle();
    const sessionId = await workOffline('WO-REFUSED');
    proxy = await startFaultProxy({ target: { port: site.port }, port });

    const drained = unwrap(await app.services.api.flushOutbox());
    expect(drained).toMatchObject({ pending: 0, inFlight: 0, failed: 0, conflicts: 0 });
    expect(unwrap(await app.services.api.getSession(sessionId)).entryid).not.toBeNull();
    expect(proxy.requestsTo(LOOK_FOR_START, 'GET'), 'no look for a start that never left').toHaveLength(0);
    expect(proxy.requestsTo(/^\/api\/2\.0\/work_log$/, 'POST')).toHaveLength(1);
    expect(await entriesOnSite('WO-REFUSED')).toHaveLength(1);
  });

  it('known away (a refusal said so before): not sent at all, so sent once back with no look', async () => {
    const port = proxy.port;
    await proxy.close();
    await settle();
    // The first refusal marks the site unreachable; the second session's start is then not even sent.
    const first = await workOffline('WO-AWAY-1');
    const second = await workOffline('WO-AWAY-2');
    proxy = await startFaultProxy({ target: { port: site.port }, port });

    const drained = unwrap(await app.services.api.flushOutbox());
    expect(drained).toMatchObject({ pending: 0, inFlight: 0, failed: 0, conflicts: 0 });
    for (const sessionId of [first, second])
      expect(unwrap(await app.services.api.getSession(sessionId)).entryid).not.toBeNull();
    expect(proxy.requestsTo(LOOK_FOR_START, 'GET'), 'no look for a start that never left').toHaveLength(0);
    expect(proxy.requestsTo(/^\/api\/2\.0\/work_log$/, 'POST')).toHaveLength(2);
    expect(await entriesOnSite('WO-AWAY-2')).toHaveLength(1);
  });

  it('reset on the way: the start is looked for on the site before it is sent again, and made once', async () => {
    proxy.clearLog();
    proxy.setSchedule(always({ kind: 'reset' }));
    const sessionId = await workOffline('WO-RESET');
    proxy.passAll();
    proxy.clearLog();

    const drained = unwrap(await app.services.api.flushOutbox());
    expect(drained).toMatchObject({ pending: 0, inFlight: 0, failed: 0, conflicts: 0 });
    expect(unwrap(await app.services.api.getSession(sessionId)).entryid).not.toBeNull();
    expect(proxy.requestsTo(LOOK_FOR_START, 'GET'), 'the start may have landed: looked for').toHaveLength(1);
    expect(await entriesOnSite('WO-RESET')).toHaveLength(1);
  });
});
