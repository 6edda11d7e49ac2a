import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { audit } from '../fault/helpers.ts';
import { always, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { api, signIn, startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { formGuideOnSite } from '../helpers/worklog.ts';

// Fieldguide closed (the technician quits) while the site hangs with one of their changes out: the close
// waited for the request's own time limit (the outbox's, a minute and more here), and Electron's window went
// without the data folder closing behind it. Now every request out ends at once when the app closes; the
// change the site did take is found there at the next start, not sent twice.
const REQUEST_LIMIT_MS = 120_000;
let site: RunningSite;
let proxy: FaultProxy;
let guideid: number;
const folder = makeTempDir('close-hanging');

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port }, maxDelayMs: REQUEST_LIMIT_MS });
  guideid = await formGuideOnSite(site.apiUrl, (await signIn(site, 'admin')).token);
});
afterAll(async () => {
  await proxy?.close();
  await site?.close();
  folder.remove();
});

it('closes at once with a change out to a site that hangs, and the change lands once at the next start', async () => {
  // Each request listens for the close while it is out: a sync's many at once are no "memory leak" to Node.
  const warnings: string[] = [];
  const warned = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', warned);
  const app = makeServices(folder.dir, { requestTimeoutMs: REQUEST_LIMIT_MS });
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await app.services.api.signIn({ siteUrl: proxy.url, email, password }));
  unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
  expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
  // The site takes the start (it is forwarded first) and its answer is held past the test's own time limit.
  proxy.setSchedule(always({ kind: 'delay', ms: REQUEST_LIMIT_MS, beforeReply: true }));
  const session = unwrap(await app.services.api.startSession({ guideid, workorderid: 'WO-CLOSE-HANGING' }));
  await expect.poll(() => proxy.requestsTo(/\/work_log$/, 'POST').length, { timeout: 10_000 }).toBe(1);
  // The close ends the request instead of waiting out its 120 s (the test's own limit is 30 s).
  await app.services.close();
  proxy.passAll();

  // The next start: the sign-in kept, the start looked for on the site (it may have landed), found, not sent again.
  const again = makeServices(folder.dir, { requestTimeoutMs: 10_000 });
  try {
    await again.services.start();
    await expect
      .poll(async () => unwrap(await again.services.api.getSession(session.id)).entryid ?? null, { timeout: 15_000 })
      .not.toBeNull();
    const tech = await signIn(site, 'tech1');
    const listed = (
      await api(site, 'GET', '/work_log', { token: tech.token, query: { workorderid: 'WO-CLOSE-HANGING', guideid } })
    ).body as { results: { entryid: number }[] };
    expect(listed.results).toHaveLength(1);
    const created = (await audit(site, 'work_log')).filter((a) => a.method === 'POST' && /\/work_log$/.test(a.path));
    expect(created).toHaveLength(1);
    expect(unwrap(await again.services.api.getOutbox()).summary).toMatchObject({ pending: 0, failed: 0 });
  } finally {
    await again.services.close();
    process.off('warning', warned);
  }
  expect(warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning'))).toEqual([]);
}, 30_000);
