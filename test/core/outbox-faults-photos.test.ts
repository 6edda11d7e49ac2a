import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import type { RunningSite } from '../../server/site.ts';
import { audit } from '../fault/helpers.ts';
import { always, type FaultProxy } from '../fault/proxy.ts';
import { api, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { flushThroughFaults, replayFaults, signedInThroughFaults } from '../helpers/replay-faults.ts';
import type { makeServices } from '../helpers/services.ts';
import { SEEDED_TIMEOUT_MS, seedCount, seedStart } from '../helpers/seeds.ts';
import { photoGuide } from '../helpers/worklog.ts';

// Photos through a faulty network, as outbox-faults.test.ts does it for values and transitions: fast-check
// draws a session with one to three photos taken one after another for the same step's Image field (each
// replacing the last), maybe one more taken while the replay runs, and an ending, and a fault schedule
// (resets, 5xx, cut and dropped answers after the site committed, stalls) on the uploads and the work log.
// After each run the last photo is on the site once (an upload whose answer was lost is found by its name,
// not sent again; a second copy is removed), a photo replaced at most once (none when its upload had not
// left: step-values.ts), and the step's value on the site names the upload of the last one.
const RUNS = seedCount(40, 5);
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let tech: { token: string };
let photo: Awaited<ReturnType<typeof photoGuide>>;
let workorder = 0;

beforeAll(async () => {
  ({ site, proxy, app } = await signedInThroughFaults());
  expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
  photo = await photoGuide(app.services.api);
  tech = await signIn(site, 'tech1');
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

/** Every item of tech1's media library on the site, page after page. */
async function mediaOnSite(): Promise<{ id: number; name: string }[]> {
  const all: { id: number; name: string }[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = (await api(site, 'GET', `/user/media/current?limit=200&offset=${offset}`, { token: tech.token }))
      .body as { id: number; name: string }[];
    all.push(...page);
    if (page.length < 200) return all;
  }
}

/** How many uploads the site has applied, and how many items it has removed (its audit log). */
async function uploadsApplied(): Promise<{ made: number; removed: number }> {
  const applied = await audit(site, 'user_media');
  return {
    made: applied.filter((a) => a.method === 'POST' && /\/user\/media\/uploads$/.test(a.path.split('?')[0]!)).length,
    removed: applied.filter((a) => a.method === 'DELETE').length,
  };
}

describe('photos replayed through a faulty network', () => {
  it(
    `reach the site once at most over ${RUNS} seeded schedules, the last once, the step naming it`,
    {
      timeout: SEEDED_TIMEOUT_MS,
    },
    async () => {
      const kinds = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 2 ** 30 }),
          fc.integer({ min: 1, max: 3 }),
          fc.constantFrom('finish', 'cancel', 'open'),
          fc.boolean(),
          async (seed, offline, ending, duringReplay) => {
            const run = ++workorder;
            const api_ = app.services.api;
            proxy.setSchedule(always({ kind: 'reset' }));
            let session = unwrap(await api_.startSession({ guideid: photo.guide.guideid, workorderid: `PF-${run}` }));
            const take = async (p: number) => {
              const picture = encodePng(createCanvas(8, 6, [(40 * p + run) % 256, 90, 160]));
              const file = { stepid: photo.stepid, fieldGuid: photo.fieldGuid, name: `pf-${run}-${p}.png` };
              const dataBase64 = picture.toString('base64');
              session = unwrap(
                await api_.attachFile({ sessionId: session.id, ...file, mime: 'image/png', dataBase64 }),
              );
            };
            for (let p = 0; p < offline; p++) await take(p);
            const before = await uploadsApplied();

            replayFaults(proxy, seed, /\/(work_log|user\/media)/);
            // One more taken while the replay runs: the one it replaces may be on its way, or refused, or
            // landed with its answer lost (a replaced photo that has not left is not sent: step-values.ts).
            let photos = offline;
            let replaying: Promise<unknown> = Promise.resolve();
            if (duringReplay) {
              replaying = api_.flushOutbox();
              await new Promise((resolve) => setTimeout(resolve, seed % 40));
              await take(photos++);
            }
            if (ending !== 'open') {
              const transition = ending as 'finish' | 'cancel';
              session = unwrap(await api_.transitionSession({ sessionId: session.id, transition }));
            }
            await replaying;
            const summary = await flushThroughFaults(api_, proxy, kinds);
            const more = duringReplay ? ' and 1 during the replay' : '';
            const label = `seed ${seed}, ${offline} photo(s)${more}, ${ending}`;
            expect(summary, label).toMatchObject({ pending: 0, inFlight: 0, failed: 0, conflicts: 0 });

            const media = await mediaOnSite();
            const named = (p: number) => media.filter((m) => m.name.endsWith(`-pf-${run}-${p}.png`));
            for (let p = 0; p < photos - 1; p++) expect(named(p).length, `${label}: photo ${p}`).toBeLessThanOrEqual(1);
            expect(named(photos - 1), `${label}: the last photo`).toHaveLength(1);
            const onSite = Array.from({ length: photos }, (_, p) => named(p).length).reduce((a, b) => a + b);
            const after = await uploadsApplied();
            expect(after.made - before.made - (after.removed - before.removed), `${label}: uploads kept`).toBe(onSite);

            session = unwrap(await api_.getSession(session.id));
            const entry = (await api(site, 'GET', `/work_log/${session.entryid}`, { token: tech.token })).body as {
              work_data: { field_guid: string; value: string }[];
            };
            const value = entry.work_data.find((d) => d.field_guid === photo.fieldGuid)?.value;
            expect(String(value), `${label}: the step names the last photo`).toBe(String(named(photos - 1)[0]!.id));
          },
        ),
        { numRuns: RUNS, seed: seedStart(20261205), endOnFailure: true },
      );
      // The schedules really lost answers after the site committed, and the rest.
      for (const kind of ['reset', 'status', 'cutBody', 'dropResponse'])
        expect(kinds.get(kind) ?? 0, kind).toBeGreaterThan(0);
    },
  );
});
