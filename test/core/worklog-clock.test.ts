import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuideDetail, StepFormField } from '../../electron/contract.ts';
import type { RunningSite } from '../../server/site.ts';
import { always, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { api, signIn, startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';
import { guideWithForms, sampleValue } from '../helpers/worklog.ts';

// The laptop's clock is wrong while it works offline: a day fast, a day slow, set back mid-session. Time
// is simulated: `real` is the true time (the site's clock follows it through its test hook), the laptop's
// wall clock is `real + skew`, and its monotonic clock runs with `real` whatever the wall clock says.
const DAY = 86_400_000;
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let real = Math.floor(Date.now() / 1000) * 1000;
let skew = 0;
let guide: GuideDetail;
let fields: { field: StepFormField; stepid: number }[];

async function advance(ms: number): Promise<void> {
  real += ms;
  const answer = await fetch(`${site.url}/__test/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ now: Math.floor(real / 1000) }),
  });
  expect(answer.status).toBe(200);
}

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
  await advance(0);
  app = makeServices(undefined, { clock: () => real + skew, monotonic: () => real });
  await signInAndSync(app.services, proxy.url);
  ({ guide, fields } = await guideWithForms(app.services.api));
  fields = fields.filter(({ field }) => sampleValue(field) !== null);
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

/**
 * Online first (the site's clock is learned), then offline: the clock goes wrong (`during`), a whole
 * session is done over ten minutes, the clock is corrected and the network comes back. Every time the
 * site keeps must lie within the session's real span (a minute either side) and never in its future.
 */
async function offlineSession(workorderid: string, during: (minute: number) => void): Promise<void> {
  unwrap(await app.services.api.listSuspended(guide.guideid));
  proxy.setSchedule(always({ kind: 'reset' }));
  const begin = Math.floor(real / 1000);
  during(0);
  let session = unwrap(await app.services.api.startSession({ guideid: guide.guideid, workorderid }));
  const steps = [...new Set(fields.map((f) => f.stepid))].slice(0, 3);
  let minute = 0;
  for (const stepid of steps) {
    await advance(60_000);
    during(++minute);
    const values = fields
      .filter((f) => f.stepid === stepid)
      .map(({ field }) => ({ fieldGuid: field.fieldGuid, value: sampleValue(field, 2) }));
    unwrap(await app.services.api.saveStepData({ sessionId: session.id, stepid, values }));
  }
  for (const transition of ['pause', 'resume', 'finish'] as const) {
    await advance(2 * 60_000);
    during(++minute);
    session = unwrap(await app.services.api.transitionSession({ sessionId: session.id, transition }));
  }
  const end = Math.floor(real / 1000);
  expect(unwrap(await app.services.api.flushOutbox()).pending).toBeGreaterThan(0);

  skew = 0;
  await advance(5 * 60_000);
  proxy.passAll();
  app.services.setNetworkHint(true);
  expect(unwrap(await app.services.api.flushOutbox())).toMatchObject({ pending: 0, inFlight: 0, failed: 0 });
  session = unwrap(await app.services.api.getSession(session.id));

  const sentAt = Math.floor(real / 1000);
  const tech = await signIn(site, 'tech1');
  const entry = (await api(site, 'GET', `/work_log/${session.entryid}`, { token: tech.token })).body as {
    starttime: number;
    endtime: number;
    pause_duration: number;
  };
  const timings = (
    site.db.prepare('SELECT time FROM work_log_timings WHERE entryid = ? ORDER BY timingid').all(session.entryid) as {
      time: number;
    }[]
  ).map((t) => t.time);
  expect(timings.length).toBe(steps.length);
  for (const time of [entry.starttime, entry.endtime, ...timings]) {
    expect(time, `${workorderid}: ${time} in [${begin}, ${end}]`).toBeGreaterThanOrEqual(begin - 60);
    expect(time, `${workorderid}: ${time} in [${begin}, ${end}]`).toBeLessThanOrEqual(end + 60);
    expect(time).toBeLessThanOrEqual(sentAt);
  }
  // Nothing before the start, and the steps in the order they were saved.
  for (const time of timings) expect(time).toBeGreaterThanOrEqual(entry.starttime);
  expect(timings).toEqual([...timings].sort((a, b) => a - b));
  expect(entry.endtime - entry.starttime).toBeGreaterThan(5 * 60);
  // The laptop shows the times the site keeps.
  expect(session).toMatchObject({
    startedAt: entry.starttime,
    endedAt: entry.endtime,
    pauseSeconds: entry.pause_duration,
  });
}

describe('a wrong laptop clock, offline, then corrected', () => {
  it('a day fast: nothing reaches the site dated in the future, and the session keeps its real span', async () => {
    await offlineSession('WO-FAST', () => {
      skew = DAY;
    });
  });

  it('a day slow: the session is not moved a day into the past', async () => {
    await offlineSession('WO-SLOW', () => {
      skew = -DAY;
    });
  });

  it('set back two hours mid-session: step data and the pause are never sent before the start', async () => {
    await offlineSession('WO-BACK', (minute) => {
      skew = minute >= 2 ? -2 * 3_600_000 : 0;
    });
  });
});
