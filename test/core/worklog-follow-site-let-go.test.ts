import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TAKEN_OVER_LOOKED_AT_SECONDS } from '../../electron/core/worklog/taken-over-look.ts';
import type { RunningSite } from '../../server/site.ts';
import { api, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { formWorkshop, type Client, type FormWorkshop } from '../helpers/worklog-clients.ts';

// A session of tech1's that tech2 took over on the site is looked at by each sync (taken-over-look.ts), with two
// lists asked, for as long as it stays here: for ever once tech2 finished it (an entry only they may read). Once
// tech1 read its card ("Understood"), or two weeks after it was learned, it is tech2's for good here: the syncs ask
// nothing of it, and a hand-back after that is taken from the Sessions list's handed-over row, as the site has it.
let workshop: FormWorkshop;
let site: RunningSite;
let guideid: number;
let workorder = 0;
let a: Client;
/** How far this computer's clock is ahead of the wall clock, in seconds (two weeks on, in one test). */
let ahead = 0;

beforeAll(async () => {
  workshop = await formWorkshop();
  ({ site, guideid } = workshop);
  a = await workshop.client('tech1', { clock: () => Date.now() + ahead * 1000 });
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

/** A session of tech1's handed over here, then taken over on the site by tech2, learned by a sync: its card. */
async function takenOverByTech2(): Promise<{ id: string; entryid: number; cardId: number }> {
  const core = a.app.services.api;
  const started = unwrap(await core.startSession({ guideid, workorderid: `WO-LET-GO-${++workorder}` }));
  unwrap(await core.transitionSession({ sessionId: started.id, transition: 'suspend' }));
  await a.online();
  const entryid = unwrap(await core.getSession(started.id)).entryid!;
  await onSite('tech2', entryid, ['assume']);
  expect(unwrap(await core.syncNow()).status).toBe('complete');
  const [card] = unwrap(await core.listConflicts()).filter((c) => c.sessionId === started.id);
  expect(card!.label).toMatch(/^Taken over on the site by /);
  return { id: started.id, entryid, cardId: card!.id };
}

/**
 * What a sync asks the site's work log of tech1's sessions (the lists of their entries and of those handed over, or
 * one entry): nothing, once none is looked at. Not its probe of whether the site has a work log (`?limit=1`).
 */
async function workLogAskedBySync(): Promise<string[]> {
  a.proxy.clearLog();
  expect(unwrap(await a.app.services.api.syncNow()).status).toBe('complete');
  return a.proxy
    .requestsTo(/^\/api\/2\.0\/work_log/)
    .map((r) => `${r.method} ${r.path}`)
    .filter((request) => !request.endsWith('/work_log?limit=1'));
}

describe("a session taken over on the site, once it is the colleague's for good here", () => {
  it('its card read: no sync asks of it; handed back later, Take it over from the row takes it back', async () => {
    const core = a.app.services.api;
    const { id, entryid, cardId } = await takenOverByTech2();
    const tech1id = (await signIn(site, 'tech1')).userid;
    // Unread, each sync looks (the two lists).
    expect(await workLogAskedBySync()).not.toEqual([]);
    unwrap(await core.settleConflict({ conflictId: cardId, keep: 'theirs' }));
    expect(await workLogAskedBySync()).toEqual([]);
    // tech2 hands it back: the sync does not follow it now (it asks nothing), but the Sessions list offers it.
    await onSite('tech2', entryid, ['suspend']);
    expect(await workLogAskedBySync()).toEqual([]);
    expect(unwrap(await core.getSession(id)).userid).not.toBe(tech1id);
    const rows = unwrap(await core.listHandedOver()).sessions.filter((s) => s.entryid === entryid);
    expect(rows).toHaveLength(1);
    // Take it over: it was refused as "no longer handed over" (running here, as tech2 last had it).
    const taken = unwrap(await core.assumeSession(entryid));
    expect(taken).toMatchObject({ id, status: 'started', userid: tech1id });
    await a.online();
    expect(a.proxy.requestsTo(/\/assume/).map((r) => r.upstreamStatus)).toEqual([200]);
    const onSiteNow = await api(site, 'GET', `/work_log/${entryid}`, { token: (await signIn(site, 'tech1')).token });
    expect(onSiteNow.body).toMatchObject({ status: 'started', userid: tech1id });
    expect(unwrap(await core.getSession(id))).toMatchObject({ pendingActions: 0, openConflicts: 0 });
    unwrap(await core.transitionSession({ sessionId: id, transition: 'finish' }));
    await a.online();
  });

  it('its card unread for two weeks: no sync asks of it any more', async () => {
    const { id } = await takenOverByTech2();
    expect(await workLogAskedBySync()).not.toEqual([]);
    // Two weeks and a minute later, on this computer's clock.
    ahead = TAKEN_OVER_LOOKED_AT_SECONDS + 60;
    expect(await workLogAskedBySync()).toEqual([]);
    // Still said as taken over, its card still there to read.
    expect(unwrap(await a.app.services.api.getSession(id)).siteDecided?.label).toMatch(/^Taken over on the site by /);
  });
});
