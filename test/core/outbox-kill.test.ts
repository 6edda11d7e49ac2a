import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepFormField } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { audit } from '../fault/helpers.ts';
import { always, mulberry32, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { api, signIn, startTestSite } from '../server/helpers.ts';
import { runKillableChild } from '../helpers/child.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { formGuideOnSite, sampleValue } from '../helpers/worklog.ts';
import { SEEDED_TIMEOUT_MS, seedCount, seedStart } from '../helpers/seeds.ts';

// SIGKILL the process replaying an outbox at seeded points: nothing lost, nothing applied twice, the
// database intact; a new process finishes the replay. Each run queues a whole session and a favourite and
// a "done" mark set the other way from the run before, so each run changes each mark on the site once.
const RUNS = seedCount(20, 4);
const child = path.resolve(import.meta.dirname, '../helpers/outbox-child.ts');
let site: RunningSite;
let proxy: FaultProxy;
let template: ReturnType<typeof makeTempDir>;
let guideid: number;
let fields: { field: StepFormField; stepid: number }[];

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
  const admin = await signIn(site, 'admin');
  guideid = await formGuideOnSite(site.apiUrl, admin.token);
  // One synced, signed-in data folder, copied for each run.
  template = makeTempDir('outbox-kill');
  const app = makeServices(template.dir);
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
  await app.services.close();
});
afterAll(async () => {
  template?.remove();
  await proxy?.close();
  await site?.close();
});

/** Demo guides whose marks each run sets (not the session's: finishing it marks it completed on the site). */
const FAVORITE = 1;
const COMPLETED = 3;

/**
 * A copy of the template with a whole session queued (offline): start, saves, pause, resume, finish; and
 * a favourite and a completion set to `on`.
 */
async function queuedSession(
  workorderid: string,
  on: boolean,
): Promise<{ dir: ReturnType<typeof makeTempDir>; sessionId: string; actions: number }> {
  const dir = makeTempDir('outbox-kill-run');
  fs.cpSync(template.dir, dir.dir, { recursive: true });
  proxy.setSchedule(always({ kind: 'reset' }));
  const app = makeServices(dir.dir);
  const session = unwrap(await app.services.api.startSession({ guideid, workorderid }));
  for (const [index, { field, stepid }] of fields.slice(0, 4).entries()) {
    unwrap(
      await app.services.api.saveStepData({
        sessionId: session.id,
        stepid,
        values: [{ fieldGuid: field.fieldGuid, value: sampleValue(field, index) }],
      }),
    );
    if (index === 1) {
      unwrap(await app.services.api.transitionSession({ sessionId: session.id, transition: 'pause' }));
      unwrap(await app.services.api.transitionSession({ sessionId: session.id, transition: 'resume' }));
    }
  }
  unwrap(await app.services.api.transitionSession({ sessionId: session.id, transition: 'finish' }));
  unwrap(await app.services.api.setGuideMark(FAVORITE, 'favorite', on));
  unwrap(await app.services.api.setGuideMark(COMPLETED, 'completed', on));
  const actions = unwrap(await app.services.api.getOutbox()).actions.length;
  await app.services.close();
  proxy.passAll();
  return { dir, sessionId: session.id, actions };
}

describe('killing a replay', () => {
  it(`at ${RUNS} seeded points loses nothing and applies nothing twice`, { timeout: SEEDED_TIMEOUT_MS }, async () => {
    const tech = await signIn(site, 'tech1');
    const marksOf = async () => [
      ...(await audit(site, 'favorites')).filter((a) => a.entity_id === `${tech.userid}:${FAVORITE}`),
      ...(await audit(site, 'completions')).filter((a) => a.entity_id === `${tech.userid}:${COMPLETED}`),
    ];
    const marked = (table: string, guide: number) =>
      site.db.prepare(`SELECT 1 FROM ${table} WHERE userid = ? AND guideid = ?`).get(tech.userid, guide) !== undefined;
    const reference = await queuedSession('KILL-REF', true);
    const full = await runKillableChild(child, [reference.dir.dir], null);
    reference.dir.remove();
    expect(full.last).toBe('done 0');

    const random = mulberry32(seedStart(777));
    for (let run = 1; run <= RUNS; run++) {
      const killAt = 1 + Math.floor(random() * full.requests);
      const on = run % 2 === 0;
      const marksBefore = (await marksOf()).length;
      const { dir, sessionId, actions } = await queuedSession(`KILL-${run}`, on);
      try {
        expect((await runKillableChild(child, [dir.dir], killAt)).killed, `run ${run}`).toBe(true);
        const db = new Database(path.join(dir.dir, 'fieldguide.sqlite'));
        expect(db.pragma('integrity_check', { simple: true }), `run ${run}`).toBe('ok');
        db.close();

        const app = makeServices(dir.dir);
        try {
          let summary = unwrap(await app.services.api.flushOutbox());
          for (let i = 0; i < 10 && summary.pending > 0; i++) summary = unwrap(await app.services.api.flushOutbox());
          expect(summary, `run ${run} (killed at request ${killAt} of ${actions} actions)`).toMatchObject({
            pending: 0,
            failed: 0,
            conflicts: 0,
          });
          const session = unwrap(await app.services.api.getSession(sessionId));
          const listed = (
            await api(site, 'GET', '/work_log', { token: tech.token, query: { workorderid: `KILL-${run}`, guideid } })
          ).body as { results: { entryid: number }[] };
          expect(
            listed.results.map((e) => e.entryid),
            `run ${run}: one entry`,
          ).toEqual([session.entryid]);
          const entry = (await api(site, 'GET', `/work_log/${session.entryid}`, { token: tech.token })).body;
          expect(entry, `run ${run}`).toMatchObject({
            status: 'complete',
            starttime: session.startedAt,
            endtime: session.endedAt,
          });
          const onSite = new Map(
            (entry.work_data as { field_guid: string; value: string }[]).map((d) => [d.field_guid, d.value]),
          );
          for (const value of session.values) expect(onSite.get(value.fieldGuid), `run ${run}`).toBe(value.value);
          const applied = (await audit(site, 'work_log')).filter((a) => a.entity_id === String(session.entryid));
          expect(
            applied.filter((a) => a.method === 'POST' && /\/work_log$/.test(a.path)),
            `run ${run}: created once`,
          ).toHaveLength(1);
          for (const transition of ['pause', 'resume', 'finish'])
            expect(
              applied.filter((a) => a.path.endsWith(`/${transition}`)),
              `run ${run}: ${transition}`,
            ).toHaveLength(1);
          // The marks as this run set them, each changed once on the site.
          expect(marked('favorites', FAVORITE), `run ${run}: favourite`).toBe(on);
          expect(marked('completions', COMPLETED), `run ${run}: completed`).toBe(on);
          expect((await marksOf()).length - marksBefore, `run ${run}: each mark changed once`).toBe(2);
        } finally {
          await app.services.close();
        }
      } finally {
        dir.remove();
      }
    }
  });
});
