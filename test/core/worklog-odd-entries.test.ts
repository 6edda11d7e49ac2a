import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTransport } from '../../electron/core/api/transport.ts';
import { entriesOfUser, findEntries } from '../../electron/core/api/work-log-api.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { always, onPaths, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { signIn, startTestSite } from '../server/helpers.ts';

// A real site's work log may list an entry this version cannot read: a status it does not know, a value
// of a shape it cannot take. The reference site's own lists, with one such entry added on their way (a
// proxy), show what the technician gets: every session handed over that can be read, and a word on the one
// that cannot, not a refusal of the whole list. The search for a lost start stays strict: the entry it
// cannot read may be the start itself, and taking it for absent would send the start a second time.
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let tech1: { token: string; userid: number };
let tech2Userid = 0;
let handedGuide = 0;

/** An entry of another technician's in a shape no version of Fieldguide knows. */
const odd = (userid: number, guideid: number) => ({
  entryid: 990_001,
  guideid,
  userid,
  workorderid: 'WO-ODD',
  starttime: 1_700_000_000,
  status: 'archived',
  work_data: [{ field_revisionid: 1, value: { imageid: 7 } }],
});

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
  tech1 = await signIn(site, 'tech1');
  tech2Userid = (await signIn(site, 'tech2')).userid;
  // The demo's own hand-over: tech2's suspended WO-24021.
  handedGuide = (
    site.db.prepare("SELECT guideid FROM work_log WHERE workorderid = 'WO-24021'").get() as { guideid: number }
  ).guideid;
  // Every list of the work log the client asks for comes with the odd entry at its end.
  const withOdd = (text: string) => {
    const list = JSON.parse(text) as { results: unknown[] };
    list.results.push(odd(tech2Userid, handedGuide));
    return JSON.stringify(list);
  };
  proxy.setSchedule(onPaths(/\/work_log(\?|\/\d+\/suspended)/, always({ kind: 'rewrite', body: withOdd }), 'GET'));
  app = makeServices();
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await app.services.api.signIn({ siteUrl: proxy.url, email, password }));
});

afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

describe('a work-log list with an entry this version cannot read', () => {
  it('still lists every session handed over, and says one more could not be read', async () => {
    const handedOver = unwrap(await app.services.api.listHandedOver());
    expect(handedOver.sessions.map((s) => s.workorderid)).toContain('WO-24021');
    expect(handedOver.unreadable).toBe(1);
    // What was learned is kept for offline use with its word.
    expect(handedOver.learnedAt).toBeNull();

    const ofGuide = unwrap(await app.services.api.listSuspended(handedGuide));
    expect(ofGuide.sessions.map((s) => s.workorderid)).toContain('WO-24021');
    expect(ofGuide.unreadable).toBe(1);
  });

  it("still tells the guides a technician worked on; a lost start's search refuses the list", async () => {
    const transport = new ApiTransport({ siteUrl: proxy.url, token: tech1.token });
    const worked = await entriesOfUser(transport, tech1.userid);
    expect(worked.unreadable).toBe(1);
    const onSite = site.db.prepare('SELECT COUNT(*) AS n FROM work_log WHERE userid = ?').get(tech1.userid) as {
      n: number;
    };
    expect(onSite.n).toBeGreaterThan(0);
    expect(worked.entries).toHaveLength(onSite.n);

    await expect(
      findEntries(transport, { guideid: handedGuide, workorderid: 'WO-ODD', userid: tech1.userid }),
    ).rejects.toThrow(/not in the expected form at results\.\d+/);
  });
});
