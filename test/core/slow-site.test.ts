import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { always } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { formWorkshop, type Client, type FormWorkshop } from '../helpers/worklog-clients.ts';
import { api, signIn } from '../server/helpers.ts';

// A site on bad Wi-Fi: every answer takes 3.5 s, over real HTTP through the fault proxy. Its first check
// gives up at 2 s and says it offline (as for a site that stops); once nothing was in flight, every
// request then waited on a check that gave up the same way, and no work reached a site that answered
// all along (a walk of the app found 60 s of it with only checks going out). A late answer now says the
// site is there, and the checks after it wait long enough.
const SLOW_MS = 3_500;
let workshop: FormWorkshop;
let tech1: Client;

beforeAll(async () => {
  workshop = await formWorkshop();
  tech1 = await workshop.client('tech1');
});
afterAll(async () => {
  await workshop?.close();
});

const network = async () => unwrap(await tech1.app.services.api.getStatus()).network;

describe('a site that answers, slowly', () => {
  it('gets the work done while it is slow, once each, and is said online', { timeout: 90_000 }, async () => {
    const { api: app } = tech1.app.services;
    tech1.proxy.setSchedule(always({ kind: 'delay', ms: SLOW_MS }));
    // Said offline by the first quiet-site check (it gives up at 2 s)...
    await expect.poll(network, { timeout: 15_000, interval: 200 }).toBe('offline');
    // ...and work done meanwhile is kept here, as offline.
    const session = unwrap(await app.startSession({ guideid: workshop.guideid, workorderid: 'WO-SLOW-SITE' }));
    unwrap(await app.transitionSession({ sessionId: session.id, transition: 'pause' }));
    // The site's late answers bring it back: the work goes, slowly, without Send now.
    await expect
      .poll(async () => unwrap(await app.getOutbox()).summary, { timeout: 60_000, interval: 500 })
      .toMatchObject({ pending: 0, inFlight: 0, failed: 0, conflicts: 0 });
    expect(await network()).toBe('online');
    tech1.proxy.passAll();
    const { token } = await signIn(workshop.site, 'tech1');
    const listed = await api(workshop.site, 'GET', '/work_log', {
      token,
      query: { guideid: workshop.guideid, workorderid: 'WO-SLOW-SITE' },
    });
    const entries = (listed.body as { results: { status: string }[] }).results;
    expect(entries.map((entry) => entry.status)).toEqual(['paused']);
  });
});
