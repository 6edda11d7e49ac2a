import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import type { DemoAccountName } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { invalidTransitionBody, workLogEntry } from './content-schemas.ts';
import { api, call, expectError, expectShape, signInAll, startTestSite, type SignedIn } from './helpers.ts';

const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;
const T0 = 1_800_000_000;
const STATES = ['started', 'paused', 'suspended', 'complete', 'cancelled'] as const;
const TRANSITIONS = ['finish', 'cancel', 'pause', 'resume', 'suspend', 'assume'] as const;
type State = (typeof STATES)[number];
type Transition = (typeof TRANSITIONS)[number];

/** Reference 3.1, written out: every allowed (state, transition) and where it leads. Everything else is refused. */
const ALLOWED: Partial<Record<State, Partial<Record<Transition, State>>>> = {
  started: { finish: 'complete', cancel: 'cancelled', pause: 'paused', suspend: 'suspended' },
  paused: { resume: 'started' },
  suspended: { assume: 'started' },
};
/** How to bring a new entry into each state. */
const PATH: Record<State, Transition[]> = {
  started: [],
  paused: ['pause'],
  suspended: ['suspend'],
  complete: ['finish'],
  cancelled: ['cancel'],
};

let site: RunningSite;
let who: Record<DemoAccountName, SignedIn>;
let beltSteps: number[];
beforeAll(async () => {
  site = await startTestSite({ demo: true });
  who = await signInAll(site);
  beltSteps = (await api(site, 'GET', `/guides/${id('compressor-belt')}`)).body.steps.map(
    (s: { stepid: number }) => s.stepid,
  );
});
afterAll(() => site.close());
beforeEach(async () => {
  await call('POST', `${site.url}/__test/clock`, { json: { now: T0 } });
});

type Entry = { entryid: number; revisionid: number; status: string; [key: string]: unknown };

async function start(as: DemoAccountName = 'tech1', json: Record<string, unknown> = {}): Promise<Entry> {
  const answer = await api(site, 'POST', '/work_log', {
    token: who[as].token,
    json: { guideid: id('compressor-belt'), workorderid: 'WO-1', ...json },
  });
  expect(answer.status, answer.text).toBe(201);
  return expectShape(workLogEntry, answer.body);
}

function act(entry: Entry, transition: Transition, as: DemoAccountName = 'tech1', json?: Record<string, unknown>) {
  return api(site, 'POST', `/work_log/${entry.entryid}/${transition}`, {
    token: who[as].token,
    query: { revisionid: entry.revisionid },
    ...(json ? { json } : {}),
  });
}

async function enter(state: State): Promise<Entry> {
  let entry = await start();
  for (const step of PATH[state]) {
    const answer = await act(entry, step);
    expect(answer.status, answer.text).toBe(200);
    entry = answer.body;
  }
  expect(entry.status).toBe(state);
  return entry;
}

const audit = async (entryid: number) =>
  (
    (await call('GET', `${site.url}/__test/audit`, { query: { entity: 'work_log' } })).body as { entity_id: string }[]
  ).filter((e) => e.entity_id === String(entryid));

describe('work-log transitions (reference 3.1)', () => {
  for (const state of STATES) {
    for (const transition of TRANSITIONS) {
      const target = ALLOWED[state]?.[transition];
      it(`${transition} from ${state}: ${target ? `-> ${target}` : '422 invalid_transition'}`, async () => {
        const entry = await enter(state);
        const applied = (await audit(entry.entryid)).length;
        const answer = await act(entry, transition, transition === 'assume' ? 'tech2' : 'tech1');
        if (target) {
          expect(answer.status, answer.text).toBe(200);
          const after = expectShape(workLogEntry, answer.body);
          expect(after).toMatchObject({ entryid: entry.entryid, status: target, revisionid: entry.revisionid + 1 });
          expect(await audit(entry.entryid)).toHaveLength(applied + 1);
        } else {
          expect(answer.status, answer.text).toBe(422);
          const body = expectShape(invalidTransitionBody, answer.body);
          expect(body.entry).toEqual(entry);
          expect((await api(site, 'GET', `/work_log/${entry.entryid}`, { token: who.tech1.token })).body).toEqual(
            entry,
          );
          expect(await audit(entry.entryid)).toHaveLength(applied);
        }
      });
    }
  }
});

describe('times follow `timestamp`', () => {
  it('pause time, assume and the end time follow the technician, not the server', async () => {
    let entry = await start('tech1', { timestamp: T0 - 600, stepid: beltSteps[1] });
    expect(entry).toMatchObject({
      starttime: T0 - 600,
      active_stepid: beltSteps[1],
      pause_duration: 0,
      endtime: null,
      duration: 0,
    });
    entry = (await act(entry, 'pause', 'tech1', { timestamp: T0 - 500 })).body;
    expect(entry).toMatchObject({ status: 'paused', active_stepid: null, pause_duration: 0 });
    entry = (await act(entry, 'resume', 'tech1', { timestamp: T0 - 400 })).body;
    expect(entry).toMatchObject({ status: 'started', active_stepid: beltSteps[1], pause_duration: 100 });
    entry = (await act(entry, 'suspend', 'tech1', { timestamp: T0 - 300 })).body;
    expect(entry).toMatchObject({ status: 'suspended', active_stepid: null, pause_duration: 100 });
    entry = (await act(entry, 'assume', 'tech2', { timestamp: T0 - 100 })).body;
    expect(entry).toMatchObject({
      status: 'started',
      userid: who.tech2.userid,
      active_stepid: beltSteps[1],
      pause_duration: 300,
    });
    entry = (await act(entry, 'finish', 'tech2', { timestamp: T0 - 50 })).body;
    expect(expectShape(workLogEntry, entry)).toMatchObject({
      status: 'complete',
      endtime: T0 - 50,
      duration: 250,
      pause_duration: 300,
      cancelled: 0,
      active_stepid: null,
    });
  });

  it('uses the server clock without a timestamp, and never runs time backwards', async () => {
    let entry = await start();
    expect(entry.starttime).toBe(T0);
    entry = (await act(entry, 'pause')).body;
    await call('POST', `${site.url}/__test/clock`, { json: { now: T0 + 30 } });
    entry = (await act(entry, 'resume')).body;
    expect(entry.pause_duration).toBe(30);
    entry = (await act(entry, 'cancel', 'tech1', { timestamp: T0 - 9999 })).body;
    expect(entry).toMatchObject({ status: 'cancelled', cancelled: 1, endtime: T0, duration: 0 });
  });

  it('refuses a timestamp that is not unix seconds', async () => {
    const entry = await start();
    expectError(await act(entry, 'pause', 'tech1', { timestamp: 'noon' }), 422, 'timestamp', 'invalid_value');
    expectError(await act(entry, 'pause', 'tech1', { timestamp: -5 }), 422, 'timestamp');
    expectError(
      await api(site, 'POST', '/work_log', {
        token: who.tech1.token,
        json: { guideid: 1, workorderid: 'x', timestamp: 'soon' },
      }),
      422,
      'timestamp',
    );
  });
});

describe('revisionid on modifications (DESIGN.md §7)', () => {
  it('is required: 422 missing_field naming revisionid, for every transition and step data', async () => {
    const entry = await start();
    for (const transition of TRANSITIONS) {
      const answer = await api(site, 'POST', `/work_log/${entry.entryid}/${transition}`, {
        token: who[transition === 'assume' ? 'tech2' : 'tech1'].token,
      });
      expectError(answer, 422, 'revisionid', 'missing_field');
    }
    expectError(
      await api(site, 'PUT', `/work_log/${entry.entryid}/stepData`, { token: who.tech1.token, json: { fields: {} } }),
      422,
      'revisionid',
      'missing_field',
    );
    expectError(
      await api(site, 'POST', `/work_log/${entry.entryid}/pause`, {
        token: who.tech1.token,
        query: { revisionid: 'latest' },
      }),
      422,
      'revisionid',
      'invalid_value',
    );
    expect(await audit(entry.entryid)).toHaveLength(1);
  });

  it('must be current: a stale one is a 409 whose body is the current entry', async () => {
    const first = await start();
    const paused = (await act(first, 'pause')).body;
    for (const transition of TRANSITIONS) {
      const answer = await act(first, transition, transition === 'assume' ? 'tech2' : 'tech1');
      expect(answer.status, `${transition}: ${answer.text}`).toBe(409);
      expect(expectShape(workLogEntry, answer.body)).toEqual(paused);
    }
    const data = await api(site, 'PUT', `/work_log/${first.entryid}/stepData`, {
      token: who.tech1.token,
      query: { revisionid: first.revisionid },
      json: { fields: {} },
    });
    expect([data.status, data.body.revisionid]).toEqual([409, paused.revisionid]);
    const deleted = await api(site, 'DELETE', `/work_log/${first.entryid}`, {
      token: who.tech1.token,
      query: { revisionid: first.revisionid },
    });
    expect([deleted.status, deleted.body.revisionid]).toEqual([409, paused.revisionid]);
  });
});

describe('who may change an entry', () => {
  it('its owner (or an admin); anyone who can view the guide may assume a suspended one', async () => {
    const entry = await start();
    expectError(
      await api(site, 'POST', `/work_log/${entry.entryid}/pause`, { query: { revisionid: entry.revisionid } }),
      401,
    );
    expectError(await act(entry, 'pause', 'tech2'), 403);
    expectError(
      await api(site, 'POST', '/work_log/999999/pause', { token: who.tech1.token, query: { revisionid: 1 } }),
      404,
    );
    const byAdmin = await act(entry, 'pause', 'admin');
    expect(byAdmin.body.status).toBe('paused');
  });

  it('refuses assume to someone who cannot view a private guide', async () => {
    const draft = (
      await api(site, 'POST', '/work_log', {
        token: who.author.token,
        json: { guideid: id('mig-setup'), workorderid: 'WO-draft' },
      })
    ).body as Entry;
    const suspended = (await act(draft, 'suspend', 'author')).body as Entry;
    expectError(await act(suspended, 'assume', 'tech1'), 403);
    expect((await act(suspended, 'assume', 'admin')).body).toMatchObject({
      status: 'started',
      userid: who.admin.userid,
    });
  });
});
