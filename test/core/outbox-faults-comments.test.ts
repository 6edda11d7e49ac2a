import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuideDetail } from '../../electron/contract.ts';
import type { RunningSite } from '../../server/site.ts';
import { audit } from '../fault/helpers.ts';
import { always, type FaultProxy } from '../fault/proxy.ts';
import { api, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { flushThroughFaults, replayFaults, signedInThroughFaults } from '../helpers/replay-faults.ts';
import type { makeServices } from '../helpers/services.ts';
import { SEEDED_TIMEOUT_MS, seedCount, seedStart } from '../helpers/seeds.ts';

// The comment kinds through the fault schedules of outbox-faults.test.ts: fast-check draws comments
// written offline (on the guide or a step), edits before and after a try, deletes; the outbox then drains
// through resets, 5xx, cut and dropped answers after the site committed, and stalls. The site must hold
// each surviving comment once, under tech1, with its last text, and none of the deleted ones.
// Quick runs 30: the schedules must still draw each fault kind the end checks for. At 15 they drew one
// reset in all (54–58 requests: the count moves with timing), and once none.
const RUNS = seedCount(60, 30);
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let guide: GuideDetail;
let userid: number;
let serial = 0;

beforeAll(async () => {
  ({ site, proxy, app } = await signedInThroughFaults());
  const { guideid } = site.db.prepare('SELECT min(guideid) AS guideid FROM guides').get() as { guideid: number };
  unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
  expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
  guide = unwrap(await app.services.api.getGuide(guideid));
  userid = (await signIn(site, 'tech1')).userid;
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

type Plan = { where: number; editBefore: boolean; triedFirst: boolean; editAfterTry: boolean; remove: boolean };
const planArb: fc.Arbitrary<Plan> = fc.record({
  where: fc.nat(20),
  editBefore: fc.boolean(),
  triedFirst: fc.boolean(),
  editAfterTry: fc.boolean(),
  remove: fc.boolean(),
});

type OnSite = { commentid: number; text_raw: string; author: { userid: number } };

async function commentsOnSite(): Promise<Map<number, OnSite>> {
  const body = (await api(site, 'GET', `/guides/${guide.guideid}`)).body as {
    comments: OnSite[];
    steps: { comments: OnSite[] }[];
  };
  return new Map([...body.comments, ...body.steps.flatMap((s) => s.comments)].map((c) => [c.commentid, c]));
}

describe('comments through a faulty network', () => {
  it(
    `reach the site once each, as last written, over ${RUNS} seeded schedules`,
    { timeout: SEEDED_TIMEOUT_MS },
    async () => {
      const api_ = app.services.api;
      const kinds = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 2 ** 30 }),
          fc.array(planArb, { minLength: 1, maxLength: 4 }),
          async (seed, plans) => {
            proxy.setSchedule(always({ kind: 'reset' }));
            const before = await commentsOnSite();
            const auditedBefore = Math.max(0, ...(await audit(site, 'comment')).map((a) => a.auditid));
            const expected: { id: string; text: string | null }[] = [];
            for (const plan of plans) {
              const targets = [
                { context: 'guide' as const, contextid: guide.guideid },
                ...guide.steps.map((s) => ({ context: 'step' as const, contextid: s.stepid })),
              ];
              const target = targets[plan.where % targets.length]!;
              let text = `Seed ${seed}, comment ${++serial}: as first written.`;
              const written = unwrap(await api_.writeComment({ guideid: guide.guideid, ...target, text }));
              if (plan.editBefore) {
                text = `Seed ${seed}, comment ${serial}: edited before it left.`;
                unwrap(await api_.editComment({ id: written.id, text }));
              }
              // A try that the reset refused: it may have reached the site, as far as the client knows.
              if (plan.triedFirst) await api_.flushOutbox();
              if (plan.editAfterTry) {
                text = `Seed ${seed}, comment ${serial}: edited after a try.`;
                unwrap(await api_.editComment({ id: written.id, text }));
              }
              if (plan.remove) unwrap(await api_.deleteComment(written.id));
              expected.push({ id: written.id, text: plan.remove ? null : text });
            }

            replayFaults(proxy, seed, /\/(comments|guides\/\d+)/);
            const summary = await flushThroughFaults(api_, proxy, kinds);
            expect(summary, `seed ${seed}`).toMatchObject({ pending: 0, inFlight: 0, failed: 0 });

            const after = await commentsOnSite();
            const added = [...after.values()].filter((c) => !before.has(c.commentid));
            const surviving = expected.filter((e) => e.text !== null);
            expect(added.map((c) => c.text_raw).sort(), `seed ${seed}`).toEqual(surviving.map((e) => e.text).sort());
            expect(
              added.every((c) => c.author.userid === userid),
              `seed ${seed}: under tech1`,
            ).toBe(true);
            const mine = unwrap(await api_.guideComments(guide.guideid)).mine;
            for (const { id, text } of surviving)
              expect(
                mine.find((m) => m.id === id),
                `seed ${seed}`,
              ).toMatchObject({ state: 'sent', unsent: false, text });
            // Every comment created in this run is one kept or one deleted since: none was created twice.
            const applied = (await audit(site, 'comment')).filter((a) => a.auditid > auditedBefore);
            const count = (method: string) => applied.filter((a) => a.method === method).length;
            expect(count('POST'), `seed ${seed}: created once each`).toBe(surviving.length + count('DELETE'));
          },
        ),
        { numRuns: RUNS, seed: seedStart(20261125), endOnFailure: true },
      );
      for (const kind of ['reset', 'status', 'cutBody', 'dropResponse'])
        expect(kinds.get(kind) ?? 0, kind).toBeGreaterThan(0);
    },
  );
});
