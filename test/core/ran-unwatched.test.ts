import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppApi } from '../../electron/contract.ts';
import { UNWATCHED_SECONDS } from '../../electron/core/worklog/unwatched.ts';
import type { RunningSite } from '../../server/site.ts';
import { api as siteApi, signIn, startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { guideWithForms, sampleValue } from '../helpers/worklog.ts';

// A second day's walk: a session left running when Fieldguide closed for the night counted the night as work
// (13 h on the site for a morning's job), with no word on reopening. Fieldguide notes that it runs; a long
// gap is kept on each session whose clock ran, and its technician says whether it was work. The laptop's and
// the site's clocks are moved together (the site's through its test hook), a night in a few milliseconds.
const HOUR = 3_600_000;
let site: RunningSite;
let now = Math.floor(Date.now() / 1000) * 1000;
/** The computer's uptime, seconds: it runs with the time, sleep included; a clock set by hand does not move it. */
let up = 3600;
/** A monotonic clock, ms: it runs with the time too, and a clock set by hand does not move it either. */
let mono = 0;
const tmp = makeTempDir('ran-unwatched');
let app: ReturnType<typeof makeServices>;
let api: AppApi;
let guideid: number;

async function advance(ms: number): Promise<void> {
  now += ms;
  up += ms / 1000;
  mono += ms;
  const answer = await fetch(`${site.url}/__test/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ now: Math.floor(now / 1000) }),
  });
  expect(answer.status).toBe(200);
}

/** Fieldguide opened on the data folder (its notes that it runs begin). */
async function open(): Promise<void> {
  app = makeServices(tmp.dir, { clock: () => now, monotonic: () => mono, uptime: () => up, aliveEveryMs: 20 });
  api = app.services.api;
  await app.services.start();
}
/** Fieldguide open through `ms` of the day: its notes (every 20 ms here) see each 20 minutes go by. */
async function workDay(ms: number): Promise<void> {
  for (let spent = 0; spent < ms; spent += 20 * 60_000) {
    await advance(20 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 60));
  }
}
/** Fieldguide closed: its last note is taken as it closes. */
const close = () => app.services.close();
const seconds = () => Math.floor(now / 1000);

async function siteEntry(entryid: number | null): Promise<{ pause_duration: number; status: string }> {
  const tech = await signIn(site, 'tech1');
  return (await siteApi(site, 'GET', `/work_log/${entryid}`, { token: tech.token })).body as {
    pause_duration: number;
    status: string;
  };
}

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  await advance(0);
  await open();
  await signInAndSync(app.services, site.url);
  guideid = (await guideWithForms(api)).guide.guideid;
});
afterAll(async () => {
  await app?.services.close().catch(() => {});
  await site?.close();
  tmp.remove();
});

describe('a session left running while Fieldguide was closed', () => {
  it('the night is asked about, and "not work" reaches the site as a pause over it', async () => {
    const running = unwrap(await api.startSession({ guideid, workorderid: 'WO-NIGHT' }));
    const paused = unwrap(await api.startSession({ guideid, workorderid: 'WO-PAUSED' }));
    unwrap(await api.transitionSession({ sessionId: paused.id, transition: 'pause' }));
    await advance(20 * 60_000);
    expect(unwrap(await api.flushOutbox())).toMatchObject({ pending: 0, failed: 0 });
    const closedAt = seconds();
    await close();

    await advance(14 * HOUR);
    const openedAt = seconds();
    await open();
    const night = unwrap(await api.getSession(running.id));
    expect(night.ranUnwatched).toEqual({ stretches: [{ from: closedAt, to: openedAt }] });
    // A paused session's clock did not run: nothing to ask.
    expect(unwrap(await api.getSession(paused.id)).ranUnwatched).toBeNull();
    expect(unwrap(await api.getOutbox()).summary.pending).toBe(0);

    await advance(3 * 60_000);
    const answered = unwrap(await api.answerRanUnwatched({ sessionId: running.id, work: false }));
    expect(answered).toMatchObject({ status: 'started', pausedAt: null, ranUnwatched: null });
    expect(answered.pauseSeconds).toBe(openedAt - closedAt);
    // A glove's second tap finds nothing left to answer: nothing more is queued.
    unwrap(await api.answerRanUnwatched({ sessionId: running.id, work: false }));
    const queued = unwrap(await api.getOutbox()).actions.map((a) => [a.kind, a.actedAt]);
    expect(queued).toEqual([
      ['pause', closedAt],
      ['resume', openedAt],
    ]);
    expect(unwrap(await api.flushOutbox())).toMatchObject({ pending: 0, failed: 0, conflicts: 0 });
    const entry = await siteEntry(unwrap(await api.getSession(running.id)).entryid);
    expect(entry.pause_duration).toBe(openedAt - closedAt);
    expect(entry.status).toBe('started');
    unwrap(await api.transitionSession({ sessionId: running.id, transition: 'finish' }));
    unwrap(await api.flushOutbox());
  });

  it('"it was work" keeps the time counted and sends nothing; a short gap asks nothing', async () => {
    const session = unwrap(await api.startSession({ guideid, workorderid: 'WO-LATE' }));
    unwrap(await api.flushOutbox());
    await close();
    await advance(UNWATCHED_SECONDS * 1000 - 60_000);
    await open();
    expect(unwrap(await api.getSession(session.id)).ranUnwatched).toBeNull();
    await close();
    await advance(2 * HOUR);
    await open();
    expect(unwrap(await api.getSession(session.id)).ranUnwatched).not.toBeNull();
    const kept = unwrap(await api.answerRanUnwatched({ sessionId: session.id, work: true }));
    expect(kept).toMatchObject({ ranUnwatched: null, pauseSeconds: 0, pausedAt: null });
    expect(unwrap(await api.getOutbox()).summary.pending).toBe(0);
    unwrap(await api.transitionSession({ sessionId: session.id, transition: 'cancel' }));
    unwrap(await api.flushOutbox());
  });

  it('going on in the session answers it as work (a pause back in the night could not be sent in order)', async () => {
    const { fields } = await guideWithForms(api);
    const { field, stepid } = fields.find((f) => sampleValue(f.field) !== null)!;
    const session = unwrap(await api.startSession({ guideid, workorderid: 'WO-ON' }));
    unwrap(await api.flushOutbox());
    await close();
    await advance(10 * HOUR);
    await open();
    expect(unwrap(await api.getSession(session.id)).ranUnwatched).not.toBeNull();
    const values = [{ fieldGuid: field.fieldGuid, value: sampleValue(field) }];
    const saved = unwrap(await api.saveStepData({ sessionId: session.id, stepid, values }));
    expect(saved.ranUnwatched).toBeNull();
    unwrap(await api.answerRanUnwatched({ sessionId: session.id, work: false }));
    expect(unwrap(await api.getSession(session.id)).pauseSeconds).toBe(0);
    unwrap(await api.transitionSession({ sessionId: session.id, transition: 'cancel' }));
    unwrap(await api.flushOutbox());
  });

  it('taken back and worked on another computer: not asked about here, until it is changed here again', async () => {
    // A walk: handed over here and taken back on another computer, it ran on here as the site has it, and the
    // next morning here asked whether the night was work, of a session worked on elsewhere.
    const session = unwrap(await api.startSession({ guideid, workorderid: 'WO-ELSEWHERE' }));
    unwrap(await api.transitionSession({ sessionId: session.id, transition: 'suspend' }));
    unwrap(await api.flushOutbox());
    const { entryid } = unwrap(await api.getSession(session.id));
    const tech1 = await signIn(site, 'tech1');
    const { revisionid } = (await siteApi(site, 'GET', `/work_log/${entryid}`, { token: tech1.token })).body as {
      revisionid: number;
    };
    const assume = `/work_log/${entryid}/assume?revisionid=${revisionid}`;
    expect((await siteApi(site, 'POST', assume, { token: tech1.token, json: {} })).status).toBe(200);
    expect(unwrap(await api.syncNow()).status).toBe('complete');
    expect(unwrap(await api.getSession(session.id))).toMatchObject({ status: 'started', pausedAt: null });
    await close();
    await advance(14 * HOUR);
    await open();
    expect(unwrap(await api.getSession(session.id)).ranUnwatched).toBeNull();

    // Paused and resumed here: its clock is this computer's again, and the next night is asked about.
    unwrap(await api.transitionSession({ sessionId: session.id, transition: 'pause' }));
    unwrap(await api.transitionSession({ sessionId: session.id, transition: 'resume' }));
    unwrap(await api.flushOutbox());
    await close();
    await advance(14 * HOUR);
    await open();
    expect(unwrap(await api.getSession(session.id)).ranUnwatched).not.toBeNull();
    unwrap(await api.answerRanUnwatched({ sessionId: session.id, work: true }));
    unwrap(await api.transitionSession({ sessionId: session.id, transition: 'cancel' }));
    unwrap(await api.flushOutbox());
  });

  it('two nights unanswered are two stretches: the day between stays work, each night a pause', async () => {
    const session = unwrap(await api.startSession({ guideid, workorderid: 'WO-TWO-NIGHTS' }));
    unwrap(await api.flushOutbox());
    const nights: { from: number; to: number }[] = [];
    for (let night = 0; night < 2; night++) {
      const from = seconds();
      await close();
      await advance(13 * HOUR);
      await open();
      nights.push({ from, to: seconds() });
      // The day: Fieldguide open, this session not touched.
      await workDay(9 * HOUR);
    }
    expect(unwrap(await api.getSession(session.id)).ranUnwatched).toEqual({ stretches: nights });
    unwrap(await api.answerRanUnwatched({ sessionId: session.id, work: false }));
    expect(unwrap(await api.flushOutbox())).toMatchObject({ pending: 0, failed: 0, conflicts: 0 });
    const done = unwrap(await api.getSession(session.id));
    expect(done.pauseSeconds).toBe(2 * 13 * 3600);
    expect((await siteEntry(done.entryid)).pause_duration).toBe(2 * 13 * 3600);
    unwrap(await api.transitionSession({ sessionId: session.id, transition: 'cancel' }));
    unwrap(await api.flushOutbox());
  });

  it('a clock set a day forward by hand is no night; a computer restarted is judged by its wall clock', async () => {
    const session = unwrap(await api.startSession({ guideid, workorderid: 'WO-CLOCK' }));
    unwrap(await api.flushOutbox());
    await close();
    // The laptop's clock alone moves a day (the site's, the uptime and the monotonic clock do not), with
    // Fieldguide open: the site's answers teach it the offset; then the clock is set back.
    await open();
    now += 24 * HOUR;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(unwrap(await api.getSession(session.id)).ranUnwatched).toBeNull();
    unwrap(await api.listSuspended(guideid));
    now -= 24 * HOUR;
    await close();
    // A night in which the computer was shut down: its uptime starts again.
    await advance(12 * HOUR);
    up = 120;
    await open();
    expect(unwrap(await api.getSession(session.id)).ranUnwatched?.stretches.length).toBe(1);
    unwrap(await api.transitionSession({ sessionId: session.id, transition: 'cancel' }));
    unwrap(await api.flushOutbox());
  });
});
