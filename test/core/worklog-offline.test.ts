import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { audit } from '../fault/helpers.ts';
import { always, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { api, signIn, startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';
import { guideWithForms, sampleValue } from '../helpers/worklog.ts';

// A whole work session with no network (every connection reset), then replayed to the real site.
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let now = Date.now();

/**
 * Time passes for the laptop and the site alike (the site's clock
 * through its test hook): nothing is dated in the site's future.
 */
async function advance(ms: number): Promise<void> {
  now += ms;
  await fetch(`${site.url}/__test/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ now: Math.floor(now / 1000) }),
  });
}

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
  await advance(0);
  app = makeServices(undefined, { clock: () => now, monotonic: () => now });
  await signInAndSync(app.services, proxy.url);
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

describe('a work session with no network', () => {
  it('is accepted offline, then replayed once, in order, with the times the technician acted', async () => {
    const { guide, fields } = await guideWithForms(app.services.api);
    const simple = fields.filter(({ field }) => sampleValue(field) !== null);
    proxy.setSchedule(always({ kind: 'reset' }));

    let session = unwrap(await app.services.api.startSession({ guideid: guide.guideid, workorderid: 'WO-7731' }));
    const t0 = session.startedAt;
    // Dated on the site's clock, learned from its answers while the test set up (seconds apart on a loaded machine).
    expect(Math.abs(t0 - now / 1000)).toBeLessThan(15);
    expect(session).toMatchObject({ status: 'started', entryid: null, pendingActions: 1 });
    const steps = [...new Set(simple.map((f) => f.stepid))];
    for (const stepid of steps) {
      await advance(30_000);
      const values = simple
        .filter((f) => f.stepid === stepid)
        .map(({ field }) => ({ fieldGuid: field.fieldGuid, value: sampleValue(field, 1) }));
      unwrap(await app.services.api.saveStepData({ sessionId: session.id, stepid, values }));
      // A second save of the same step while unsent merges into the first.
      session = unwrap(
        await app.services.api.saveStepData({ sessionId: session.id, stepid, values: values.slice(0, 1) }),
      );
    }
    expect(session.pendingActions).toBe(1 + steps.length);
    await advance(60_000);
    unwrap(await app.services.api.transitionSession({ sessionId: session.id, transition: 'pause' }));
    await advance(240_000);
    unwrap(await app.services.api.transitionSession({ sessionId: session.id, transition: 'resume' }));
    await advance(300_000);
    session = unwrap(await app.services.api.transitionSession({ sessionId: session.id, transition: 'finish' }));
    expect(session).toMatchObject({
      status: 'complete',
      pauseSeconds: 240,
      endedAt: t0 + 30 * steps.length + 600,
      pendingActions: 1 + steps.length + 3,
    });
    const refused = await app.services.api.transitionSession({ sessionId: session.id, transition: 'pause' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_transition' } });

    // Offline, nothing goes: every attempt is reset, and the actions wait with backoff.
    const offline = unwrap(await app.services.api.flushOutbox());
    expect(offline.pending).toBe(1 + steps.length + 3);
    expect(proxy.counts.reset).toBeGreaterThan(0);

    proxy.passAll();
    const drained = unwrap(await app.services.api.flushOutbox());
    expect(drained).toMatchObject({ pending: 0, inFlight: 0, failed: 0, conflicts: 0 });
    session = unwrap(await app.services.api.getSession(session.id));
    expect(session.entryid).not.toBeNull();

    const tech = await signIn(site, 'tech1');
    const entry = (await api(site, 'GET', `/work_log/${session.entryid}`, { token: tech.token })).body;
    expect(entry).toMatchObject({
      status: 'complete',
      starttime: t0,
      endtime: session.endedAt,
      pause_duration: 240,
      workorderid: 'WO-7731',
    });
    const onSite = new Map(
      (entry.work_data as { field_guid: string; value: string }[]).map((d) => [d.field_guid, d.value]),
    );
    for (const { field } of simple) expect(onSite.get(field.fieldGuid), field.label).toBe(sampleValue(field, 1));

    // Exactly once in effect: one create, one change per action.
    const applied = (await audit(site, 'work_log')).filter((a) => a.path.includes('/work_log'));
    expect(applied.filter((a) => a.method === 'POST' && /\/work_log$/.test(a.path))).toHaveLength(1);
    for (const transition of ['pause', 'resume', 'finish']) {
      expect(
        applied.filter((a) => a.path.endsWith(`/${transition}`)),
        transition,
      ).toHaveLength(1);
    }
    expect(applied.filter((a) => a.path.endsWith('/stepData'))).toHaveLength(steps.length);
  });
});
