import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { api, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { formWorkshop, type Client, type FormWorkshop } from '../helpers/worklog-clients.ts';

// Walks of one technician's session running here while the site moves on without this computer: handed over on
// their other computer and taken by a colleague (who may finish it), with nothing of it queued here.
let workshop: FormWorkshop;
let site: RunningSite;
let guideid: number;
let workorder = 0;
let a: Client;

beforeAll(async () => {
  workshop = await formWorkshop();
  ({ site, guideid } = workshop);
  a = await workshop.client('tech1');
});
afterAll(async () => {
  await workshop?.close();
});
beforeEach(() => workshop.passAll());

/** `who` does `transitions` to the entry on the site (another computer), each on its current revision. */
async function onSite(who: 'tech1' | 'tech2', entryid: number, transitions: string[]): Promise<void> {
  const { token } = await signIn(site, who);
  for (const transition of transitions) {
    const { revisionid } = (await api(site, 'GET', `/work_log/${entryid}`, { token })).body as { revisionid: number };
    const path = `/work_log/${entryid}/${transition}?revisionid=${revisionid}`;
    expect((await api(site, 'POST', path, { token, json: {} })).status).toBe(200);
  }
}

/** A session of tech1's started here and on the site, running. */
async function runningHere(): Promise<{ id: string; entryid: number }> {
  const core = a.app.services.api;
  const started = unwrap(await core.startSession({ guideid, workorderid: `WO-ELSEWHERE-${++workorder}` }));
  await a.online();
  return { id: started.id, entryid: unwrap(await core.getSession(started.id)).entryid! };
}

describe('running here, handed over on another computer and taken by a colleague', () => {
  for (const then of [[], ['finish']]) {
    const done = then.length ? ', who finished it' : '';
    it(`taken over${done}: said at the next sync, read-only here, not "In progress" for ever`, async () => {
      const core = a.app.services.api;
      const { id, entryid } = await runningHere();
      await onSite('tech1', entryid, ['suspend']);
      await onSite('tech2', entryid, ['assume', ...then]);
      a.proxy.clearLog();
      expect(unwrap(await core.syncNow()).status).toBe('complete');
      const tech1id = (await signIn(site, 'tech1')).userid;
      const session = unwrap(await core.getSession(id));
      // It said "In progress" under tech1's name, its time counting, until they acted and the site refused.
      expect(session.userid).not.toBe(tech1id);
      expect(session.siteDecided?.label).toMatch(/^Taken over on the site by /);
      expect(session.pendingActions).toBe(0);
      const cards = unwrap(await core.listConflicts()).filter((c) => c.sessionId === id);
      expect(cards).toHaveLength(1);
      // Nothing sent for it: the site already has it.
      expect(a.proxy.requestsTo(/^\/api\/2\.0\/work_log/).filter((r) => r.method !== 'GET')).toEqual([]);
      // And the next sync learns nothing new: no second card.
      expect(unwrap(await core.syncNow()).status).toBe('complete');
      expect(unwrap(await core.listConflicts()).filter((c) => c.sessionId === id)).toHaveLength(1);
    });
  }
});

describe('one technician on two computers, one session, within one sync', () => {
  it('each value and pause reaches the site once; a value both changed is a conflict shown, not lost', async () => {
    const b = await workshop.client('tech1');
    const [onA, onB] = [a.app.services.api, b.app.services.api];
    const { id, entryid } = await runningHere();
    const there = unwrap(await onB.openSession(entryid));
    const guide = unwrap(await onA.getGuide(guideid));
    const fields = guide.steps.flatMap((s) => s.form?.fields.map((f) => ({ f, stepid: s.stepid })) ?? []);
    const { f, stepid } = fields.find(({ f: field }) => field.type === 'Text Input')!;
    const value = (v: string) => ({ stepid, values: [{ fieldGuid: f.fieldGuid, value: v }] });
    // Both offline: A types a value and pauses, B types another in the same field.
    a.offline();
    b.offline();
    unwrap(await onA.saveStepData({ sessionId: id, ...value('From A') }));
    unwrap(await onA.transitionSession({ sessionId: id, transition: 'pause' }));
    unwrap(await onB.saveStepData({ sessionId: there.id, ...value('From B') }));
    await a.online();
    await b.online();
    expect(unwrap(await onB.syncNow()).status).toBe('complete');
    expect(unwrap(await onA.syncNow()).status).toBe('complete');
    const { token } = await signIn(site, 'tech1');
    const onSiteNow = (await api(site, 'GET', `/work_log/${entryid}`, { token })).body as {
      status: string;
      userid: number;
    };
    expect(onSiteNow.status).toBe('paused');
    // Sent once each, under tech1's name.
    const sent = [...a.proxy.requestsTo(/\/pause/), ...b.proxy.requestsTo(/\/pause/)].filter(
      (r) => r.method === 'POST',
    );
    expect(sent.map((r) => r.upstreamStatus)).toEqual([200]);
    // B's value met A's on the site: a card on B, the site's value kept there until it is settled.
    const cardsB = unwrap(await onB.listConflicts()).filter((c) => c.sessionId === there.id);
    expect(cardsB.map((c) => c.kind)).toEqual(['field']);
    expect(cardsB[0]).toMatchObject({ mine: 'From B', theirs: 'From A' });
    expect(unwrap(await onA.listConflicts()).filter((c) => c.sessionId === id)).toEqual([]);
    // B follows the pause made on A.
    expect(unwrap(await onB.getSession(there.id))).toMatchObject({ status: 'paused', failedActions: 0 });
    expect(unwrap(await onA.getSession(id))).toMatchObject({ status: 'paused', failedActions: 0, pendingActions: 0 });
  });
});

describe('Fieldguide closed while the site moved on', () => {
  it('running here, handed over and finished elsewhere while closed: said once opened, nothing sent', async () => {
    const { id, entryid } = await runningHere();
    const dataDir = a.app.dataDir;
    await a.app.services.close();
    await onSite('tech1', entryid, ['suspend']);
    await onSite('tech2', entryid, ['assume', 'finish']);
    const again = makeServices(dataDir);
    try {
      a.proxy.clearLog();
      expect(unwrap(await again.services.api.syncNow()).status).toBe('complete');
      const session = unwrap(await again.services.api.getSession(id));
      expect(session.siteDecided?.label).toMatch(/^Taken over on the site by /);
      expect(session.pendingActions).toBe(0);
      expect(a.proxy.requestsTo(/^\/api\/2\.0\/work_log/).filter((r) => r.method !== 'GET')).toEqual([]);
    } finally {
      await again.services.close();
    }
  });
});
