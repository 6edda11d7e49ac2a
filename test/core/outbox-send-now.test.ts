import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failFirst } from '../fault/schedules.ts';
import { api, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { formWorkshop, type Client, type FormWorkshop } from '../helpers/worklog-clients.ts';

// "Send now" pressed while a request of the outbox is still out (the network came back while the site's
// answer was lost on the way): the request fails after the press, and the action must go again at once,
// not after its backoff. Seen as a failure of worklog-two-clients.test.ts on busy cores: 1 left pending.
let workshop: FormWorkshop;
let client: Client;

beforeAll(async () => {
  workshop = await formWorkshop();
  client = await workshop.client('tech1');
});
afterAll(async () => {
  await workshop?.close();
});

describe('Send now while a request is out', () => {
  it('sends again at once an action whose request fails after the press', async () => {
    const { api: app } = client.app.services;
    // The start leaves and gets no answer for 4 s, then its connection ends; the site never sees it.
    // Everything else passes: the site answers its checks, so it is never thought away.
    client.proxy.setSchedule(failFirst(1, { kind: 'stall', ms: 4_000 }, { paths: /\/work_log$/, method: 'POST' }));
    const session = unwrap(await app.startSession({ guideid: workshop.guideid, workorderid: 'WO-SEND-NOW' }));
    await expect.poll(async () => unwrap(await app.getOutbox()).summary.inFlight, { timeout: 5_000 }).toBe(1);

    // Pressed while it is out: it fails after the press, and goes again within this Send now.
    const summary = unwrap(await app.flushOutbox());
    expect(summary).toMatchObject({ pending: 0, inFlight: 0, failed: 0, conflicts: 0 });
    const entryid = unwrap(await app.getSession(session.id)).entryid;
    expect(entryid).not.toBeNull();
    const tech = await signIn(workshop.site, 'tech1');
    const listed = await api(workshop.site, 'GET', '/work_log', {
      token: tech.token,
      query: { workorderid: 'WO-SEND-NOW', guideid: workshop.guideid },
    });
    expect((listed.body as { results: { entryid: number }[] }).results.map((e) => e.entryid)).toEqual([entryid]);
  });
});
