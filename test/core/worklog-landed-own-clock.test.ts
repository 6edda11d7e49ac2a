import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTransport } from '../../electron/core/api/transport.ts';
import type { Store } from '../../electron/core/db/store.ts';
import type { WorklogContext } from '../../electron/core/worklog/replay/context.ts';
import { landedEntries } from '../../electron/core/worklog/replay/landed.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { openTestStore } from '../helpers/store.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { api, signIn, type SignedIn } from '../server/helpers.ts';

// A site on its own clock records a start when it applies it, so a start whose answer was lost is looked for
// among the untouched entries started after it was sent (landed.ts). Two sessions here of one guide and work
// order, the second's start still waiting for its answer: the untouched entry may be the second's. Taken for the
// first, the second's answer would then give the two sessions one entry; removed by the first's check for a
// second copy, the second's work would go to an entry the site no longer has. Real site, real store file.
const tmp = makeTempDir('landed-own-clock');
const WO = 'WO-TWO-HERE';
let site: RunningSite;
let store: Store;
let tech: SignedIn;
let guideid = 0;

beforeAll(async () => {
  site = await startDemoSite({ ownClock: true });
  tech = await signIn(site, 'tech1');
  const guides = (await api(site, 'GET', '/guides', { token: tech.token })).body as { guideid: number }[];
  guideid = guides[0]!.guideid;
  store = openTestStore(tmp.dir);
  const now = Math.floor(Date.now() / 1000);
  const user = { userid: tech.userid, username: tech.username, uniqueUsername: null, privileges: [], imageUrl: null };
  const technician = store.technicians.signedIn(site.url, user, null, now);
  for (const id of ['first', 'second'])
    store.sessions.insert({
      ...{ id, entryid: null, guideid, guideRevisionid: 1, guideTitle: 'A guide', workorderid: WO },
      ...{ userid: tech.userid, status: 'started', serverRevisionid: null, startedAt: now - 10, pausedAt: null },
      ...{ pauseSeconds: 0, activeStepid: null, now, technician },
    });
});

afterAll(async () => {
  store?.close();
  await site?.close();
  tmp.remove();
});

describe('a lost start looked for on a site on its own clock', () => {
  it("takes no untouched entry while another session here of its work order waits for its start's answer", async () => {
    const sentAt = Math.floor(Date.now() / 1000) - 5;
    // The second session's start, applied by the site (on its clock), its answer still on the way.
    const made = await api(site, 'POST', '/work_log', { token: tech.token, json: { guideid, workorderid: WO } });
    const entryid = (made.body as { entryid: number }).entryid;
    const ctx = { transport: new ApiTransport({ siteUrl: site.url, token: tech.token }), sessions: store.sessions };
    const look = () =>
      landedEntries(ctx as unknown as WorklogContext, { guideid, workorderid: WO }, tech.userid, [sentAt], 'first');
    expect(await look()).toEqual([]);
    // Once the second has its own entry, an untouched one started after the first was sent is the first's.
    store.sessions.update('second', { entryid: entryid + 1000 }, Math.floor(Date.now() / 1000));
    expect((await look()).map((entry) => entry.entryid)).toEqual([entryid]);
  });
});
