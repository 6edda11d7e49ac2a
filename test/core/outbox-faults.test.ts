import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepFormField } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { audit } from '../fault/helpers.ts';
import { always, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { api, signIn, startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { flushThroughFaults, replayFaults } from '../helpers/replay-faults.ts';
import { makeServices } from '../helpers/services.ts';
import { formGuideOnSite, sampleValue } from '../helpers/worklog.ts';
import { SEEDED_TIMEOUT_MS, seedCount, seedStart } from '../helpers/seeds.ts';

// fast-check draws a work session (saves, pauses, an ending) and a fault schedule (resets, 5xx, cut
// and dropped answers after the site committed, stalls); the session is taken offline, then replayed
// through the faults. After each run the site must hold exactly what the technician did, once:
// one entry, the same status, times and values, and no change applied twice (the site's audit log).
const RUNS = seedCount(200, 20);
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let guideid: number;
let fields: { field: StepFormField; stepid: number }[];
let tech: { token: string };
let workorder = 0;

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port }, maxStallMs: 300, upstreamTimeoutMs: 5_000 });
  const admin = await signIn(site, 'admin');
  guideid = await formGuideOnSite(site.apiUrl, admin.token);
  // The client's own time limit: every fault here ends within half a second (a stall closes the
  // connection), so a shorter one would only fail answers that a busy machine is slow to give.
  app = makeServices();
  unwrap(
    await app.services.api.signIn({
      siteUrl: proxy.url,
      email: DEMO_ACCOUNTS.tech1.email,
      password: DEMO_ACCOUNTS.tech1.password,
    }),
  );
  unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
  expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
  const guide = unwrap(await app.services.api.getGuide(guideid));
  fields = guide.steps
    .flatMap((s) => (s.form ? s.form.fields.map((field) => ({ field, stepid: s.stepid })) : []))
    .filter(({ field }) => sampleValue(field) !== null);
  tech = await signIn(site, 'tech1');
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

type Step = { kind: 'save'; field: number; variant: number } | { kind: 'pause' };
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('save' as const), field: fc.nat(50), variant: fc.nat(6) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'pause' as const }) },
);

describe('replay through a faulty network', () => {
  it(`applies every action exactly once over ${RUNS} seeded schedules`, { timeout: SEEDED_TIMEOUT_MS }, async () => {
    const kinds = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.array(stepArb, { maxLength: 6 }),
        fc.constantFrom('finish', 'cancel', 'open'),
        async (seed, steps, ending) => {
          const api_ = app.services.api;
          proxy.setSchedule(always({ kind: 'reset' }));
          let session = unwrap(await api_.startSession({ guideid, workorderid: `FC-${++workorder}` }));
          let transitions = 0;
          for (const step of steps) {
            if (step.kind === 'save') {
              const { field, stepid } = fields[step.field % fields.length]!;
              session = unwrap(
                await api_.saveStepData({
                  sessionId: session.id,
                  stepid,
                  values: [{ fieldGuid: field.fieldGuid, value: sampleValue(field, step.variant) }],
                }),
              );
            } else {
              unwrap(await api_.transitionSession({ sessionId: session.id, transition: 'pause' }));
              session = unwrap(await api_.transitionSession({ sessionId: session.id, transition: 'resume' }));
              transitions += 2;
            }
          }
          if (ending !== 'open') {
            session = unwrap(
              await api_.transitionSession({ sessionId: session.id, transition: ending as 'finish' | 'cancel' }),
            );
            transitions++;
          }
          const queued = unwrap(await api_.getOutbox()).actions.filter((a) => a.sessionId === session.id);
          const queuedSaves = queued.filter((a) => a.kind === 'stepData').length;

          replayFaults(proxy, seed, /\/(work_log|user\/media)/);
          const summary = await flushThroughFaults(api_, proxy, kinds);
          expect(summary, `seed ${seed}`).toMatchObject({ pending: 0, inFlight: 0, failed: 0, conflicts: 0 });

          session = unwrap(await api_.getSession(session.id));
          const listed = (
            await api(site, 'GET', '/work_log', {
              token: tech.token,
              query: { workorderid: session.workorderid, guideid },
            })
          ).body as { results: { entryid: number }[] };
          expect(
            listed.results.map((e) => e.entryid),
            `seed ${seed}: one entry`,
          ).toEqual([session.entryid]);
          const entry = (await api(site, 'GET', `/work_log/${session.entryid}`, { token: tech.token })).body;
          expect(entry, `seed ${seed}`).toMatchObject({
            status: session.status,
            starttime: session.startedAt,
            endtime: session.endedAt,
            pause_duration: session.pauseSeconds,
          });
          const onSite = new Map(
            (entry.work_data as { field_guid: string; value: string }[]).map((d) => [d.field_guid, d.value]),
          );
          for (const value of session.values)
            expect(onSite.get(value.fieldGuid), `seed ${seed}: ${value.fieldGuid}`).toBe(value.value);

          const applied = (await audit(site, 'work_log')).filter((a) => a.entity_id === String(session.entryid));
          expect(
            applied.filter((a) => a.method === 'POST' && /\/work_log$/.test(a.path)),
            `seed ${seed}: created once`,
          ).toHaveLength(1);
          expect(
            applied.filter((a) => /\/(pause|resume|finish|cancel)$/.test(a.path)),
            `seed ${seed}: transitions once each`,
          ).toHaveLength(transitions);
          expect(applied.filter((a) => a.path.endsWith('/stepData')).length, `seed ${seed}: saves`).toBeLessThanOrEqual(
            queuedSaves,
          );
        },
      ),
      { numRuns: RUNS, seed: seedStart(20261121), endOnFailure: true },
    );
    // The schedules really lost answers after the site committed, and the rest.
    for (const kind of ['reset', 'status', 'cutBody', 'dropResponse', 'stall'])
      expect(kinds.get(kind) ?? 0, kind).toBeGreaterThan(0);
  });
});
