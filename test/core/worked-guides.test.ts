import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../electron/core/db/store.ts';
import { WORKED_GUIDES_KEY, WORKED_LIMIT, workedGuides } from '../../electron/core/sync/worked-guides.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { openTestStore } from '../helpers/store.ts';

// Issue 29: a big site's first scope keeps whole the guides the technician worked on. Two sources, read
// from a real store file: their sessions on this laptop (newest work first), then the site's work log as
// the last sync read it. Another user's work, guides they may not read, and a list of another user are
// left out; at most WORKED_LIMIT.

const tmp = makeTempDir('worked-guides');
let store: Store;
const tech = { userid: 2, admin: false };
const other = { userid: 3, admin: false };
const PRIVATE = 700;

const summary = (guideid: number) => ({
  guideid,
  revisionid: 1,
  title: `Guide ${guideid}`,
  category: 'Compressors',
  subject: '',
  type: 'repair',
  summary: '',
  flags: [],
  image: null,
  public: guideid !== PRIVATE,
  authorUserid: 1,
  modifiedDate: 1_700_000_000 + guideid,
});

let sessionNo = 0;
/** A session on this laptop, under the local technician row of the site user. */
function sessionOn(guideid: number, userid: number, startedAt: number): void {
  sessionNo++;
  const user = { userid, username: `Tech ${userid}`, uniqueUsername: null, privileges: [], imageUrl: null };
  const technician = store.technicians.signedIn('https://site.test', user, null, startedAt);
  store.sessions.insert({
    id: `s-${sessionNo}`,
    entryid: null,
    guideid,
    guideRevisionid: 1,
    guideTitle: `Guide ${guideid}`,
    workorderid: `WO-${sessionNo}`,
    userid,
    status: 'started',
    serverRevisionid: null,
    startedAt,
    pausedAt: null,
    pauseSeconds: 0,
    activeStepid: null,
    now: startedAt,
    technician,
  });
}

beforeAll(() => {
  store = openTestStore(tmp.dir);
  store.transaction(() => {
    for (let guideid = 1; guideid <= 120; guideid++) store.guides.upsertSummary(summary(guideid));
    store.guides.upsertSummary(summary(PRIVATE));
  });
});

afterAll(() => {
  store.close();
  tmp.remove();
});

describe('the guides a technician worked on', () => {
  it('are their sessions here, newest work first, then the site work log, each guide once', () => {
    expect(workedGuides(store, tech)).toEqual([]);
    sessionOn(10, tech.userid, 1_000);
    sessionOn(20, tech.userid, 3_000);
    sessionOn(10, tech.userid, 2_000);
    // Another technician's sessions on this laptop are theirs, and a guide tech may not read is left out.
    sessionOn(30, other.userid, 9_000);
    sessionOn(PRIVATE, tech.userid, 4_000);
    expect(workedGuides(store, tech)).toEqual([20, 10]);

    store.settings.set(WORKED_GUIDES_KEY, { userid: tech.userid, guideids: [40, 10, 999, 50] });
    // 999 is not in the listing (gone from the site), 10 is already there from this laptop.
    expect(workedGuides(store, tech)).toEqual([20, 10, 40, 50]);
    expect(workedGuides(store, other)).toEqual([30]);
    expect(workedGuides(store, null)).toEqual([]);
  });

  it('keeps at most the limit, the sessions here first', () => {
    store.settings.set(WORKED_GUIDES_KEY, {
      userid: tech.userid,
      guideids: Array.from({ length: 80 }, (_, i) => 120 - i),
    });
    const worked = workedGuides(store, tech);
    expect(worked).toHaveLength(WORKED_LIMIT);
    expect(worked.slice(0, 3)).toEqual([20, 10, 120]);
    expect(new Set(worked).size).toBe(WORKED_LIMIT);
  });
});
