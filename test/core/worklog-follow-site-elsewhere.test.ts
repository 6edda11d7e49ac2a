import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { api, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
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
