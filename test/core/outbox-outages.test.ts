import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GuideDetail, StepFormField } from '../../electron/contract.ts';
import { rowSum } from '../../electron/core/db/row-sums.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { always, failFirst, onPaths, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { api, signIn, startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';
import { SimTimers } from '../helpers/sim-timers.ts';
import { guideWithForms, sampleValue } from '../helpers/worklog.ts';

// Short outages must not leave work stuck (issue 24, item 5). The laptop's clocks and the outbox's waits
// run on simulated time (`now`, SimTimers): an hour of backoff passes in moments, over real HTTP to the
// reference site behind the fault proxy.
const SESSIONS = 20;
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let now: number;
let timers: SimTimers;
let guide: GuideDetail;
let field: { field: StepFormField; stepid: number };

beforeEach(async () => {
  now = Math.floor(Date.now() / 1000) * 1000;
  timers = new SimTimers(() => now);
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
  app = makeServices(undefined, { clock: () => now, monotonic: () => now, outboxTimer: timers.timer });
  await signInAndSync(app.services, proxy.url);
  const found = await guideWithForms(app.services.api);
  guide = found.guide;
  field = found.fields.find(({ field: f }) => sampleValue(f) !== null)!;
});
afterEach(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

/** Twenty sessions, each a start, a step saved and a pause. */
async function queueSessions(prefix: string): Promise<string[]> {
  const { api: app_ } = app.services;
  const ids: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const session = unwrap(await app_.startSession({ guideid: guide.guideid, workorderid: `${prefix}-${i}` }));
    const values = [{ fieldGuid: field.field.fieldGuid, value: sampleValue(field.field) }];
    unwrap(await app_.saveStepData({ sessionId: session.id, stepid: field.stepid, values }));
    unwrap(await app_.transitionSession({ sessionId: session.id, transition: 'pause' }));
    ids.push(session.id);
  }
  return ids;
}

/** Waits for the replay that queueing or an event set going: nothing in flight here nor at the proxy. */
async function quiet(): Promise<void> {
  for (let i = 0; i < 500; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (proxy.stats.inFlight === 0 && unwrap(await app.services.api.getOutbox()).summary.inFlight === 0) return;
  }
  throw new Error('the outbox did not settle');
}

/**
 * The shell says the network is back: the site is asked (over real HTTP, in its own time), and the outbox
 * wakes once it answered. Waited for by what it leads to, not by a moment of quiet that may come first.
 */
async function networkBack(): Promise<void> {
  app.services.setNetworkHint(true);
  for (let i = 0; i < 1500; i++) {
    if (unwrap(await app.services.api.getStatus()).network === 'online') return quiet();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the site was not found answering');
}

/**
 * Simulated seconds pass, `step` at a time, the outbox replaying what falls due, until `until` holds;
 * answers how many actions were stuck at worst.
 */
async function pass(seconds: number, until = async (): Promise<boolean> => false, step = 1): Promise<number> {
  let worst = 0;
  for (let s = 0; s < seconds && !(await until()); s += step) {
    now += step * 1000;
    await timers.runDue();
    worst = Math.max(worst, stuck((await outbox()).actions));
  }
  return worst;
}

const outbox = async () => unwrap(await app.services.api.getOutbox());
const stuck = (actions: { state: string }[]): number => actions.filter((a) => a.state === 'failed').length;
const drained = async (): Promise<boolean> => (await outbox()).actions.length === 0;

/** Every session is on the site once, paused, its value saved, as `who`'s. */
async function onTheSiteOnce(ids: string[], prefix: string, who: 'tech1' | 'tech2' = 'tech1'): Promise<void> {
  const tech = await signIn(site, who);
  const listed = await api(site, 'GET', `/work_log?userid=${tech.userid}&limit=200`, { token: tech.token });
  const entries = (listed.body as { results: { workorderid: string; status: string }[] }).results;
  const ours = entries.filter((entry) => entry.workorderid.startsWith(`${prefix}-`));
  expect(ours).toHaveLength(ids.length);
  expect(ours.every((entry) => entry.status === 'paused')).toBe(true);
}

describe('a site that fails for a minute', () => {
  it('leaves no chain stuck, and everything drains after it without Retry', async () => {
    const failing = always({ kind: 'status', status: 500, message: 'The work log is restarting' });
    proxy.setSchedule(onPaths(/\/work_log/, failing));
    const ids = await queueSessions('WO-500');
    await quiet();
    const during = await pass(60);
    proxy.passAll();
    const after = await pass(360, drained);
    expect({ during, after }).toEqual({ during: 0, after: 0 });
    expect((await outbox()).summary).toMatchObject({ pending: 0, inFlight: 0, failed: 0 });
    await onTheSiteOnce(ids, 'WO-500');
  }, 120_000);
});

describe('a blip of 503 after long offline', () => {
  for (const [how, away] of [
    ['seven hours offline', async () => void (await pass(7 * 3600, undefined, 300))],
    [
      'eight presses of Send now offline',
      async () => {
        for (let i = 0; i < 8; i++) unwrap(await app.services.api.flushOutbox());
      },
    ],
  ] as const) {
    it(`after ${how}, 3 s of 503 leave no chain stuck; everything drains`, async () => {
      // Offline: nothing listens where the site was (connections refused), as with the laptop off the network.
      await proxy.close();
      const ids = await queueSessions('WO-AWAY');
      await quiet();
      await away();
      expect((await outbox()).summary).toMatchObject({ pending: SESSIONS * 3, failed: 0 });
      proxy = await startFaultProxy({ target: { port: site.port }, port: proxy.port });
      proxy.setSchedule(onPaths(/\/work_log/, always({ kind: 'status', status: 503, message: 'Maintenance' })));
      // The site answers again (the heartbeat's question, or the shell's network event): every chain wakes.
      await networkBack();
      const blip = await pass(3);
      proxy.passAll();
      const after = await pass(600, drained);
      expect({ blip, after }).toEqual({ blip: 0, after: 0 });
      expect((await outbox()).summary).toMatchObject({ pending: 0, inFlight: 0, failed: 0 });
      await onTheSiteOnce(ids, 'WO-AWAY');
    }, 120_000);
  }
});

describe('actions an earlier version marked stuck while the network was away', () => {
  it('are tried again when the site answers, and drain', async () => {
    await proxy.close();
    const ids = await queueSessions('WO-EARLIER');
    await quiet();
    // As version 11 left them: failed with next_attempt_at -1, and no run of refusals recorded. Written
    // with the app closed (it holds its database) and with the rows' checksums made, as its own code would.
    const first = app;
    await first.services.close();
    const db = new Database(path.join(first.dataDir, 'fieldguide.sqlite'));
    db.prepare("UPDATE outbox SET state = 'failed', next_attempt_at = -1, last_error = 'The site kept failing'").run();
    for (const { row_sum: _, ...row } of db.prepare('SELECT * FROM outbox').all() as Record<string, unknown>[]) {
      db.prepare('UPDATE outbox SET row_sum = ? WHERE id = ?').run(rowSum(Object.values(row)), row.id);
    }
    db.close();
    const again = makeServices(first.dataDir, { clock: () => now, monotonic: () => now, outboxTimer: timers.timer });
    app = { ...again, dispose: async () => (await again.services.close(), await first.dispose()) };
    expect((await outbox()).summary).toMatchObject({ failed: SESSIONS * 3, pending: 0 });
    proxy = await startFaultProxy({ target: { port: site.port }, port: proxy.port });
    await networkBack();
    expect(await pass(600, drained)).toBe(0);
    expect((await outbox()).summary).toMatchObject({ pending: 0, inFlight: 0, failed: 0 });
    await onTheSiteOnce(ids, 'WO-EARLIER');
  }, 120_000);
});

describe('a shared laptop with nobody signed in', () => {
  it('sends by itself the work of a technician whose sign-in is kept, once the site answers again', async () => {
    const { api: app_ } = app.services;
    const as = (who: 'tech1' | 'tech2') => ({ email: DEMO_ACCOUNTS[who].email, password: DEMO_ACCOUNTS[who].password });
    // tech2 signs in on the laptop tech1 used, and works with the site away (connections refused).
    unwrap(await app_.switchTechnician(as('tech2')));
    await proxy.close();
    const ids = await queueSessions('WO-NOBODY');
    await quiet();
    await expect.poll(async () => unwrap(await app_.getStatus()).network, { timeout: 30_000 }).toBe('offline');
    // tech1 takes the laptop and signs out: nobody is signed in; tech2's sign-in is kept, their work waits.
    unwrap(await app_.switchTechnician(as('tech1')));
    expect(unwrap(await app_.signOut()).user).toBeNull();

    // The site answers again. Nobody presses anything and no backoff runs out (the outbox's clock stands
    // still): the laptop finds the site answering by itself, and tech2's work goes, as tech2's.
    proxy = await startFaultProxy({ target: { port: site.port }, port: proxy.port });
    const unsent = async () =>
      unwrap(await app_.listTechnicians()).find((e) => e.username === DEMO_ACCOUNTS.tech2.username);
    await expect.poll(async () => (await unsent())?.unsent, { timeout: 30_000, interval: 100 }).toBe(0);
    expect(unwrap(await app_.getStatus())).toMatchObject({ network: 'online', user: null });
    await onTheSiteOnce(ids, 'WO-NOBODY', 'tech2');
  }, 120_000);
});

describe('a check for a second copy of a start', () => {
  it('keeps its own time: Send now and the network coming back send the work, not the check', async () => {
    const { api: app_ } = app.services;
    const tech = await signIn(site, 'tech1');
    const entries = async (): Promise<number[]> => {
      const query = { workorderid: 'WO-CHECK', guideid: guide.guideid };
      const listed = await api(site, 'GET', '/work_log', { token: tech.token, query });
      return (listed.body as { results: { entryid: number }[] }).results.map((e) => e.entryid).sort();
    };
    // The start reaches the site but its answer is lost: the app looks, finds it and adopts it. From then
    // on it checks the site for a second copy at set times after (40 s, 160 s, ... with a 20 s limit).
    proxy.setSchedule(failFirst(1, { kind: 'dropResponse' }, { paths: /\/work_log$/, method: 'POST' }));
    const session = unwrap(await app_.startSession({ guideid: guide.guideid, workorderid: 'WO-CHECK' }));
    for (let i = 0; i < 10 && unwrap(await app_.getSession(session.id)).entryid === null; i++)
      unwrap(await app_.flushOutbox());
    const { entryid, startedAt } = unwrap(await app_.getSession(session.id));
    expect(entryid).not.toBeNull();
    // The site makes a second entry of the same start: a copy it applied late.
    const json = { guideid: guide.guideid, workorderid: 'WO-CHECK', timestamp: startedAt };
    expect((await api(site, 'POST', '/work_log', { token: tech.token, json })).status).toBe(201);
    proxy.clearLog();
    const lookups = () => proxy.requestsTo(/^\/api\/2\.0\/work_log\?.*workorderid=WO-CHECK/, 'GET').length;

    // Work queued and Send now pressed: the work goes; the check waits for its time.
    const values = [{ fieldGuid: field.field.fieldGuid, value: sampleValue(field.field) }];
    unwrap(await app_.saveStepData({ sessionId: session.id, stepid: field.stepid, values }));
    expect(unwrap(await app_.flushOutbox())).toMatchObject({ pending: 0, inFlight: 0, failed: 0 });
    expect(proxy.requestsTo(/\/stepData/, 'PUT').length).toBeGreaterThan(0);
    // The network goes and comes back: what waited goes; the check still waits.
    app.services.setNetworkHint(false);
    await networkBack();
    expect({ lookups: lookups(), entries: (await entries()).length }).toEqual({ lookups: 0, entries: 2 });

    // Its time comes: the check finds the second entry, removes it, and says so.
    await pass(60, async () => (await entries()).length === 1);
    expect(await entries()).toEqual([entryid]);
    expect(lookups()).toBeGreaterThan(0);
    const notices = unwrap(await app_.listConflicts()).filter((record) => record.kind === ('notice' as string));
    expect(notices.map((n) => n.label)).toEqual(['A second entry removed']);
  }, 120_000);
});
