import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppApi, StepFormField, WorkSession } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { always, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { faultsMade, replayFaults } from '../helpers/replay-faults.ts';
import { makeServices } from '../helpers/services.ts';
import { auditOf } from '../helpers/technicians.ts';
import { formGuideOnSite, sampleValue } from '../helpers/worklog.ts';
import { api, signIn, startTestSite, type SignedIn } from '../server/helpers.ts';
import { SEEDED_TIMEOUT_MS, seedCount, seedStart } from '../helpers/seeds.ts';

// Two technicians share the laptop. fast-check draws how their work interleaves with the site away —
// saves, pauses, quiz attempts, favourites and "done" marks toggled, switching from one to the other
// (checked here, offline), signing out with work unsent and back in — and a fault schedule (resets, 5xx,
// answers lost after the site committed, stalls) for the replay. After each run every action must be on
// the site once, none lost, and each under the technician who did it: one entry per work order, of its
// maker, every change of it made by them (the site's audit log), the values theirs; each quiz attempt
// recorded once, as its maker's; each technician's marks on the site as they last set them, made by them.
const RUNS = seedCount(100, 12);
type Who = 'tech1' | 'tech2';
const WHO: readonly Who[] = ['tech1', 'tech2'];

let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let laptop: AppApi;
let guideid: number;
let quizRevisionid: number;
let fields: { field: StepFormField; stepid: number }[];
let people: Record<Who | 'admin', SignedIn>;
let run = 0;

const password = (who: Who) => ({ email: DEMO_ACCOUNTS[who].email, password: DEMO_ACCOUNTS[who].password });

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port }, maxStallMs: 300, upstreamTimeoutMs: 5_000 });
  const [admin, tech1, tech2] = await Promise.all([
    signIn(site, 'admin'),
    signIn(site, 'tech1'),
    signIn(site, 'tech2'),
  ]);
  people = { admin, tech1, tech2 };
  guideid = await formGuideOnSite(site.apiUrl, admin.token);
  // The client's own time limit: every fault here ends within half a second (a stall closes the
  // connection), so a shorter one would only fail answers that a busy machine is slow to give.
  app = makeServices();
  laptop = app.services.api;
  unwrap(await laptop.signIn({ siteUrl: proxy.url, ...password('tech2') }));
  unwrap(await laptop.switchTechnician(password('tech1')));
  unwrap(await laptop.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
  expect(unwrap(await laptop.syncNow()).status).toBe('complete');
  const guide = unwrap(await laptop.getGuide(guideid));
  fields = guide.steps
    .flatMap((s) => (s.form ? s.form.fields.map((field) => ({ field, stepid: s.stepid })) : []))
    .filter(({ field }) => sampleValue(field) !== null);
  quizRevisionid = guide.quizzes[0]?.quizRevisionid ?? unwrap(await laptop.listQuizzes())[0]!.quizRevisionid;
  markedGuides = [1, 2, 3, 4].filter((id) => id !== guideid).slice(0, 3);
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

type Op =
  | { who: Who; kind: 'save'; field: number; variant: number }
  | { who: Who; kind: 'pause' }
  | { who: Who; kind: 'quiz' }
  | { who: Who; kind: 'mark'; mark: 'favorite' | 'completed'; guide: number; on: boolean }
  | { who: Who; kind: 'signOut' };
const whoArb = fc.constantFrom<Who>('tech1', 'tech2');
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ who: whoArb, kind: fc.constant('save' as const), field: fc.nat(50), variant: fc.nat(6) }),
  },
  { weight: 1, arbitrary: fc.record({ who: whoArb, kind: fc.constant('pause' as const) }) },
  { weight: 1, arbitrary: fc.record({ who: whoArb, kind: fc.constant('quiz' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      who: whoArb,
      kind: fc.constant('mark' as const),
      mark: fc.constantFrom('favorite' as const, 'completed' as const),
      guide: fc.nat(2),
      on: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ who: whoArb, kind: fc.constant('signOut' as const) }) },
);
const endingArb = fc.constantFrom('finish', 'cancel', 'open');
/**
 * The guides whose marks the runs toggle: three demo guides, not the one the sessions work on (finishing a
 * session there marks it completed on the site by itself).
 */
let markedGuides: number[];
const MARK_TABLES = { favorite: 'favorites', completed: 'completions' } as const;
const marked = (mark: 'favorite' | 'completed', userid: number, guide: number): boolean =>
  site.db.prepare(`SELECT 1 FROM ${MARK_TABLES[mark]} WHERE userid = ? AND guideid = ?`).get(userid, guide) !==
  undefined;

/**
 * The laptop as `who`: a switch checked offline while their sign-in is kept;
 * a signed-out one signs in with the site, which is let through for that.
 */
async function become(who: Who): Promise<void> {
  const status = unwrap(await laptop.getStatus());
  if (status.user?.userid === people[who].userid) return;
  const local = await laptop.switchTechnician(password(who));
  if (local.ok) return;
  expect(local.error.code, `${who} switching offline`).toBe('offline');
  proxy.passAll();
  try {
    unwrap(await laptop.switchTechnician(password(who)));
  } finally {
    proxy.setSchedule(always({ kind: 'reset' }));
  }
}

/** Until nobody's work waits: every technician's sign-in kept, their queues flushed. */
async function drainEveryone(seed: number): Promise<void> {
  for (let round = 0; round < 40; round++) {
    await laptop.flushOutbox();
    const entries = unwrap(await laptop.listTechnicians());
    const waiting = entries.filter((e) => e.unsent > 0);
    if (waiting.length === 0) return;
    for (const entry of waiting.filter((e) => e.signIn !== 'kept')) {
      // Signing in is not faulted (the schedule faults the work only); the work then goes through the faults.
      const result = await laptop.switchTechnician(password(entry.userid === people.tech1.userid ? 'tech1' : 'tech2'));
      expect(result.ok, `seed ${seed}: signing ${entry.username} in again`).toBe(true);
    }
  }
  expect(
    unwrap(await laptop.listTechnicians()).map((e) => [e.username, e.unsent, e.failed]),
    `seed ${seed}: drained`,
  ).toEqual(unwrap(await laptop.listTechnicians()).map((e) => [e.username, 0, 0]));
}

describe('two technicians, one laptop, a faulty network', () => {
  it(
    `sends every action once, under the technician who did it, over ${RUNS} seeded schedules`,
    { timeout: SEEDED_TIMEOUT_MS },
    async () => {
      const kinds = new Map<string, number>();
      let switches = 0;
      let signOuts = 0;
      let markToggles = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 2 ** 30 }),
          fc.array(opArb, { minLength: 2, maxLength: 8 }),
          fc.record({ tech1: endingArb, tech2: endingArb }),
          async (seed, ops, endings) => {
            run++;
            proxy.setSchedule(always({ kind: 'reset' }));
            const sessions: Partial<Record<Who, WorkSession>> = {};
            const transitions: Record<Who, number> = { tech1: 0, tech2: 0 };
            const attempts: Record<Who, string[]> = { tech1: [], tech2: [] };
            // Each technician's last toggle of a mark on a guide: what the site must hold at the end.
            const marks = new Map<string, { who: Who; mark: 'favorite' | 'completed'; guide: number; on: boolean }>();
            const session = async (who: Who): Promise<WorkSession> =>
              (sessions[who] ??= unwrap(await laptop.startSession({ guideid, workorderid: `FT2-${run}-${who}` })));

            for (const op of ops) {
              const before = unwrap(await laptop.getStatus()).user?.userid;
              await become(op.who);
              if (before !== people[op.who].userid) switches++;
              if (op.kind === 'signOut') {
                signOuts++;
                expect(unwrap(await laptop.signOut()).user).toBeNull();
              } else if (op.kind === 'mark') {
                const guide = markedGuides[op.guide]!;
                unwrap(await laptop.setGuideMark(guide, op.mark, op.on));
                markToggles++;
                marks.set(`${op.who}:${op.mark}:${guide}`, { who: op.who, mark: op.mark, guide, on: op.on });
              } else if (op.kind === 'quiz') {
                attempts[op.who].push(
                  unwrap(
                    await laptop.submitQuizAttempt({
                      quizRevisionid,
                      answers: {},
                      startedAt: Math.floor(Date.now() / 1000),
                    }),
                  ).id,
                );
              } else if (op.kind === 'save') {
                const { field, stepid } = fields[op.field % fields.length]!;
                const current = await session(op.who);
                sessions[op.who] = unwrap(
                  await laptop.saveStepData({
                    sessionId: current.id,
                    stepid,
                    values: [{ fieldGuid: field.fieldGuid, value: sampleValue(field, op.variant) }],
                  }),
                );
              } else {
                const current = await session(op.who);
                unwrap(await laptop.transitionSession({ sessionId: current.id, transition: 'pause' }));
                sessions[op.who] = unwrap(
                  await laptop.transitionSession({ sessionId: current.id, transition: 'resume' }),
                );
                transitions[op.who] += 2;
              }
            }
            for (const who of WHO) {
              const ending = endings[who];
              if (!sessions[who] || ending === 'open') continue;
              await become(who);
              sessions[who] = unwrap(
                await laptop.transitionSession({
                  sessionId: sessions[who].id,
                  transition: ending as 'finish' | 'cancel',
                }),
              );
              transitions[who]++;
            }

            replayFaults(proxy, seed, /\/(work_log|user\/media|quizzes\/attempt|user\/favorites|completed)/);
            await drainEveryone(seed);
            faultsMade(proxy, kinds);

            const workLog = await auditOf(site, 'work_log');
            const quizLog = await auditOf(site, 'quiz_attempt');
            const markLog = [...(await auditOf(site, 'favorites')), ...(await auditOf(site, 'completions'))];
            for (const { who, mark, guide, on } of marks.values()) {
              const userid = people[who].userid;
              expect(marked(mark, userid, guide), `seed ${seed}: ${who}'s ${mark} of ${guide}`).toBe(on);
              expect(
                new Set(markLog.filter((a) => a.entity_id === `${userid}:${guide}`).map((a) => a.userid)),
                `seed ${seed}: ${who}'s marks changed by ${who} only`,
              ).toEqual(new Set(markLog.some((a) => a.entity_id === `${userid}:${guide}`) ? [userid] : []));
            }
            for (const who of WHO) {
              await become(who);
              expect(unwrap(await laptop.getOutbox()).summary, `seed ${seed}: ${who}`).toMatchObject({
                pending: 0,
                inFlight: 0,
                failed: 0,
                conflicts: 0,
              });
              const userid = people[who].userid;
              if (sessions[who]) {
                const mine = unwrap(await laptop.getSession(sessions[who].id));
                const listed = (
                  await api(site, 'GET', '/work_log', {
                    token: people.admin.token,
                    query: { workorderid: mine.workorderid, guideid },
                  })
                ).body as {
                  results: { entryid: number; userid: number }[];
                };
                expect(
                  listed.results.map((e) => [e.entryid, e.userid]),
                  `seed ${seed}: ${who}'s one entry, theirs`,
                ).toEqual([[mine.entryid, userid]]);
                const entry = (await api(site, 'GET', `/work_log/${mine.entryid}`, { token: people.admin.token })).body;
                expect(entry, `seed ${seed}: ${who}`).toMatchObject({
                  status: mine.status,
                  starttime: mine.startedAt,
                  endtime: mine.endedAt,
                  pause_duration: mine.pauseSeconds,
                });
                const onSite = new Map(
                  (entry.work_data as { field_guid: string; value: string }[]).map((d) => [d.field_guid, d.value]),
                );
                for (const value of mine.values)
                  expect(onSite.get(value.fieldGuid), `seed ${seed}: ${who} ${value.fieldGuid}`).toBe(value.value);
                const applied = workLog.filter((a) => a.entity_id === String(mine.entryid));
                expect(
                  new Set(applied.map((a) => a.userid)),
                  `seed ${seed}: every change of ${who}'s entry made by ${who}`,
                ).toEqual(new Set([userid]));
                expect(
                  applied.filter((a) => a.method === 'POST' && /\/work_log$/.test(a.path)),
                  `seed ${seed}: created once`,
                ).toHaveLength(1);
                expect(
                  applied.filter((a) => /\/(pause|resume|finish|cancel)$/.test(a.path)),
                  `seed ${seed}: transitions once each`,
                ).toHaveLength(transitions[who]);
              }
              const sent = unwrap(await laptop.listQuizAttempts({})).filter((a) => attempts[who].includes(a.id));
              expect(
                sent.map((a) => a.sync),
                `seed ${seed}: ${who}'s attempts`,
              ).toEqual(attempts[who].map(() => 'sent'));
              for (const attempt of sent) {
                expect(
                  quizLog.filter((a) => a.entity_id === String(attempt.siteAttemptid)).map((a) => a.userid),
                  `seed ${seed}: ${who}'s attempt once, theirs`,
                ).toEqual([userid]);
              }
            }
          },
        ),
        { numRuns: RUNS, seed: seedStart(20261123), endOnFailure: true },
      );
      // The runs interleaved the two, signed out with work unsent, and lost answers after the site committed.
      expect(switches).toBeGreaterThan(RUNS);
      expect(signOuts).toBeGreaterThan(RUNS / 4);
      expect(markToggles).toBeGreaterThan(RUNS / 2);
      for (const kind of ['reset', 'status', 'cutBody', 'dropResponse', 'stall'])
        expect(kinds.get(kind) ?? 0, kind).toBeGreaterThan(0);
    },
  );
});
