import { beforeAll, describe, expect, it } from 'vitest';
import { ApiTransport } from '../../electron/core/api/transport.ts';
import { entriesOfUser, sameWorkorder } from '../../electron/core/api/work-log-api.ts';
import { always, onPaths, PASS, type Fault } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { overProxyForFile } from '../helpers/services.ts';
import { PHOTO_BASE64 } from '../helpers/technicians.ts';
import { photoGuide } from '../helpers/worklog.ts';
import { api, signIn } from '../server/helpers.ts';

// A real site's work log may list an entry this version cannot read (a status it does not know, a value
// of a shape it cannot take), or, ignoring one of the list's filters, entries of other users. The reference
// site's own lists, changed on their way (the fault proxy's rewrite), show what the technician gets: every
// session handed over that can be read, and a word on the other, not a refusal of the whole list; and a
// lost start found among such entries is its own, never a colleague's, and never guessed.
const over = overProxyForFile(true);
let tech1: { token: string; userid: number };
let tech2: { token: string; userid: number };
let handedGuide = 0;

type Listed = Record<string, unknown>;
const LISTS = /\/work_log(\?|\/\d+\/suspended)/;
/** The lists of the work log the client asks for, each changed by `change` on its way. */
const rewriteLists = (change: (results: Listed[], path: string) => Listed[]) =>
  onPaths(
    LISTS,
    (request) => ({
      kind: 'rewrite',
      body: (text) => {
        const list = JSON.parse(text) as { results: Listed[] };
        return JSON.stringify({ ...list, results: change(list.results, request.path) });
      },
    }),
    'GET',
  );

/** An entry of another technician's in a shape no version of Fieldguide knows. */
const odd = (): Listed => ({
  entryid: 990_001,
  guideid: handedGuide,
  userid: tech2.userid,
  workorderid: 'WO-ODD',
  starttime: 1_700_000_000,
  status: 'archived',
  work_data: [{ field_revisionid: 1, value: { imageid: 7 } }],
});

beforeAll(async () => {
  tech1 = await signIn(over.site, 'tech1');
  tech2 = await signIn(over.site, 'tech2');
  // The demo's own hand-over: tech2's suspended WO-24021.
  handedGuide = (
    over.site.db.prepare("SELECT guideid FROM work_log WHERE workorderid = 'WO-24021'").get() as { guideid: number }
  ).guideid;
});

describe('a work-log list with an entry this version cannot read', () => {
  it('still lists every session handed over, and says one more could not be read', async () => {
    over.proxy.setSchedule(rewriteLists((results) => [...results, odd()]));
    try {
      const handedOver = unwrap(await over.app.services.api.listHandedOver());
      expect(handedOver.sessions.map((s) => s.workorderid)).toContain('WO-24021');
      expect(handedOver.unreadable).toBe(1);
      expect(handedOver.learnedAt).toBeNull();

      const ofGuide = unwrap(await over.app.services.api.listSuspended(handedGuide));
      expect(ofGuide.sessions.map((s) => s.workorderid)).toEqual(['WO-24021']);
      expect(ofGuide.unreadable).toBe(1);

      // A big site's first scope: the guides of the entries it can read.
      const transport = new ApiTransport({ siteUrl: over.proxy.url, token: tech1.token });
      const worked = await entriesOfUser(transport, tech1.userid);
      const onSite = over.site.db.prepare('SELECT COUNT(*) AS n FROM work_log WHERE userid = ?').get(tech1.userid) as {
        n: number;
      };
      expect(onSite.n).toBeGreaterThan(0);
      expect(worked.entries).toHaveLength(onSite.n);
      expect(worked.unreadable).toEqual([odd()]);
    } finally {
      over.proxy.passAll();
    }
  });

  it("tells the guides a technician worked on from their entries only, the site's filter ignored", async () => {
    // A site that ignores the user filter lists tech2's entry (readable) among tech1's.
    over.proxy.setSchedule(
      rewriteLists((results, path) =>
        path.includes('userid=') ? [...results, { ...results[0], entryid: 990_005, userid: tech2.userid }] : results,
      ),
    );
    try {
      const transport = new ApiTransport({ siteUrl: over.proxy.url, token: tech1.token });
      const worked = await entriesOfUser(transport, tech1.userid);
      expect(worked.entries.length).toBeGreaterThan(0);
      expect(worked.entries.map((e) => e.userid)).toEqual(worked.entries.map(() => tech1.userid));
    } finally {
      over.proxy.passAll();
    }
  });
});

describe('a name asked of the site, answered with another user', () => {
  it('is not shown for who handed a session over', async () => {
    const admin = await signIn(over.site, 'admin');
    const adminUser = (await api(over.site, 'GET', `/users/${admin.userid}`, { token: admin.token })).body as {
      username: string;
    };
    const rewrite = { kind: 'rewrite', body: () => JSON.stringify(adminUser) } satisfies Fault;
    over.proxy.setSchedule(onPaths(new RegExp(`^/api/2\\.0/users/${tech2.userid}$`), always(rewrite), 'GET'));
    try {
      const handedOver = unwrap(await over.app.services.api.listHandedOver());
      const row = handedOver.sessions.find((s) => s.workorderid === 'WO-24021')!;
      expect(over.proxy.requestsTo(/\/users\/\d+$/, 'GET').length).toBeGreaterThan(0);
      expect(row.handedOverBy).not.toBe(adminUser.username);
    } finally {
      over.proxy.passAll();
    }
  });
});

describe("a guide's list of sessions handed over, holding entries it should not", () => {
  it('offers only those of that guide that are suspended', async () => {
    // A site answering the guide's list with others: a running entry of this guide, one of another guide.
    const wrong = (results: Listed[]) => {
      const [first] = results;
      return [
        ...results,
        { ...first, entryid: 990_002, workorderid: 'WO-RUNNING', status: 'started' },
        { ...first, entryid: 990_003, workorderid: 'WO-ELSEWHERE', guideid: handedGuide + 1 },
      ];
    };
    over.proxy.setSchedule(rewriteLists(wrong));
    try {
      const ofGuide = unwrap(await over.app.services.api.listSuspended(handedGuide));
      expect(ofGuide).toMatchObject({ unreadable: 0 });
      expect(ofGuide.sessions.map((s) => s.workorderid)).toEqual(['WO-24021']);
    } finally {
      over.proxy.passAll();
    }
  });
});

describe('a start whose answer was lost, looked for among entries the site should not have listed', () => {
  /** A start taken with the site away, then sent: the site makes it, the answer is lost (dropped). */
  async function lostStart(workorderid: string, lists: (results: Listed[]) => Listed[]) {
    const { api: app_ } = over.app.services;
    over.proxy.setSchedule(always({ kind: 'reset' }));
    const session = unwrap(await app_.startSession({ guideid: handedGuide, workorderid }));
    unwrap(await app_.flushOutbox());
    let dropped = false;
    const rewrite = rewriteLists(lists);
    over.proxy.setSchedule((request) => {
      if (request.method === 'POST' && /\/work_log$/.test(request.path) && !dropped) {
        dropped = true;
        return { kind: 'dropResponse' } satisfies Fault;
      }
      return LISTS.test(request.path) && request.path.includes(workorderid) ? rewrite(request) : PASS;
    });
    return session;
  }
  const entriesOf = (workorderid: string) =>
    over.site.db
      .prepare('SELECT entryid, userid FROM work_log WHERE workorderid = ? ORDER BY entryid')
      .all(workorderid) as {
      entryid: number;
      userid: number;
    }[];
  const sendUntilKnown = async (sessionId: string) => {
    for (let i = 0; i < 10 && unwrap(await over.app.services.api.getSession(sessionId)).entryid === null; i++)
      unwrap(await over.app.services.api.flushOutbox());
    return unwrap(await over.app.services.api.getSession(sessionId)).entryid;
  };

  it("takes its own entry, never a colleague's of the same work order and second, nor removes it", async () => {
    // A site that ignores the list's user filter lists tech2's start of the same guide, work order and
    // second beside tech1's: made on the site before tech1's arrives, it has the lower entry id.
    let colleague: Listed | null = null;
    const session = await lostStart('WO-SAME', (results) => (colleague ? [colleague, ...results] : results));
    const json = { guideid: handedGuide, workorderid: 'WO-SAME', timestamp: session.startedAt };
    const made = await api(over.site, 'POST', '/work_log', { token: tech2.token, json });
    expect(made.status).toBe(201);
    colleague = (await api(over.site, 'GET', `/work_log/${made.body.entryid}`, { token: tech2.token })).body as Listed;
    try {
      const entryid = await sendUntilKnown(session.id);
      const [theirs, mine] = entriesOf('WO-SAME');
      expect(theirs).toEqual({ entryid: made.body.entryid, userid: tech2.userid });
      expect(mine).toMatchObject({ userid: tech1.userid });
      expect(entryid).toBe(mine!.entryid);
      // Nothing asked of tech2's entry; it is still there, as tech2 left it.
      for (let i = 0; i < 5; i++) unwrap(await over.app.services.api.flushOutbox());
      expect(over.proxy.requestsTo(/\/work_log\/\d+/, 'DELETE')).toEqual([]);
      expect(entriesOf('WO-SAME')).toHaveLength(2);
      const notices = unwrap(await over.app.services.api.listConflicts()).filter((c) => c.sessionId === session.id);
      expect(notices).toEqual([]);
    } finally {
      over.proxy.passAll();
    }
  });

  it('waits, saying why, while an entry it cannot read may be the start; one of another user does not', async () => {
    // The site lists tech1's own entry in a shape this version cannot read, beside one of tech2's.
    const unreadable = (results: Listed[]) => [...results.map((e) => ({ ...e, status: 'archived' })), odd()];
    const session = await lostStart('WO-HIDDEN', unreadable);
    const tries = () => over.proxy.requestsTo(/\/work_log$/, 'POST').length;
    try {
      const before = tries();
      for (let i = 0; i < 3; i++) unwrap(await over.app.services.api.flushOutbox());
      expect(unwrap(await over.app.services.api.getSession(session.id)).entryid).toBeNull();
      // Sent once (its answer dropped), not again: it may be on the site already.
      expect(tries() - before).toBe(1);
      expect(entriesOf('WO-HIDDEN')).toHaveLength(1);
      const listed = unwrap(await over.app.services.api.getOutbox()).actions.find((row) => row.kind === 'start');
      expect(listed?.error).toMatch(/lists an entry for work order WO-HIDDEN that Fieldguide cannot read/);

      // The site lists it readably again (tech2's odd entry still there): the start is found, not sent twice.
      over.proxy.setSchedule(rewriteLists((results) => [...results, odd()]));
      const entryid = await sendUntilKnown(session.id);
      expect(entriesOf('WO-HIDDEN')).toEqual([{ entryid, userid: tech1.userid }]);
    } finally {
      over.proxy.passAll();
    }
  });
});

describe('a work order as the site gives it back', () => {
  it('is the same as typed, or as the number a site kept of it; another is not', () => {
    expect(sameWorkorder('WO-1', 'WO-1')).toBe(true);
    expect(sameWorkorder('42', '0042')).toBe(true);
    expect(sameWorkorder('42', '420')).toBe(false);
    expect(sameWorkorder('WO-1', 'wo-1')).toBe(false);
  });
});

describe('an answer to a change of one entry that is about another', () => {
  it("is not taken for a start: its own entry is found on the over.site, not a colleague's taken", async () => {
    const { api: app_ } = over.app.services;
    const theirs = over.site.db.prepare("SELECT entryid FROM work_log WHERE workorderid = 'WO-24021'").get() as {
      entryid: number;
    };
    const real = await api(over.site, 'GET', `/work_log/${theirs.entryid}`, { token: tech2.token });
    let mixed = false;
    over.proxy.setSchedule((request) => {
      if (mixed || request.method !== 'POST' || request.path !== '/api/2.0/work_log') return PASS;
      mixed = true;
      return { kind: 'rewrite', body: () => JSON.stringify(real.body) } satisfies Fault;
    });
    try {
      const session = unwrap(await app_.startSession({ guideid: handedGuide, workorderid: 'WO-ANSWERED-AS' }));
      for (let i = 0; i < 10 && unwrap(await app_.getSession(session.id)).entryid === null; i++)
        unwrap(await app_.flushOutbox());
      expect(mixed).toBe(true);
      const own = over.site.db
        .prepare("SELECT entryid, userid FROM work_log WHERE workorderid = 'WO-ANSWERED-AS'")
        .all() as { entryid: number; userid: number }[];
      expect(own).toHaveLength(1);
      expect(unwrap(await app_.getSession(session.id)).entryid).toBe(own[0]!.entryid);
      expect(own[0]!.userid).toBe(tech1.userid);
    } finally {
      over.proxy.passAll();
    }
  });

  it("is not taken: the session stays in its own entry, and nothing goes to the other's", async () => {
    const { api: app_ } = over.app.services;
    const session = unwrap(await app_.startSession({ guideid: handedGuide, workorderid: 'WO-MIXED' }));
    unwrap(await app_.flushOutbox());
    const mine = unwrap(await app_.getSession(session.id)).entryid!;
    expect(mine).not.toBeNull();
    // tech2's suspended entry: what a site mixing up its answers answers the pause with.
    const theirs = over.site.db
      .prepare("SELECT entryid, revisionid FROM work_log WHERE workorderid = 'WO-24021'")
      .get() as {
      entryid: number;
      revisionid: number;
    };
    let mixed = false;
    over.proxy.clearLog();
    over.proxy.setSchedule((request) => {
      if (mixed || request.method !== 'POST' || request.path.split('?')[0] !== `/api/2.0/work_log/${mine}/pause`)
        return PASS;
      mixed = true;
      const other = (text: string) => JSON.stringify({ ...JSON.parse(text), entryid: theirs.entryid });
      return { kind: 'rewrite', body: other } satisfies Fault;
    });
    try {
      unwrap(await app_.transitionSession({ sessionId: session.id, transition: 'pause' }));
      unwrap(await app_.transitionSession({ sessionId: session.id, transition: 'resume' }));
      for (let i = 0; i < 10 && unwrap(await app_.flushOutbox()).pending > 0; i++);
      expect(mixed).toBe(true);
      const toTheirs = new RegExp(`/work_log/${theirs.entryid}(/(?!suspended)|\\?|$)`);
      expect(over.proxy.requestsTo(toTheirs).map((r) => `${r.method} ${r.path}`)).toEqual([]);
      expect(unwrap(await app_.getOutbox()).summary).toMatchObject({ pending: 0, failed: 0 });
      expect(unwrap(await app_.getSession(session.id))).toMatchObject({ entryid: mine, status: 'started' });
      expect(
        over.site.db.prepare('SELECT status, revisionid FROM work_log WHERE entryid = ?').get(theirs.entryid),
      ).toEqual({
        status: 'suspended',
        revisionid: theirs.revisionid,
      });
      // Its own entry was paused and resumed on the over.site.
      const own = over.site.db.prepare('SELECT status, pause_duration FROM work_log WHERE entryid = ?').get(mine);
      expect(own).toMatchObject({ status: 'started' });
    } finally {
      over.proxy.passAll();
    }
  });
});

describe("an answer to an upload that names another attachment's upload", () => {
  it('is not taken: the step names its own photo, found on the over.site, uploaded once', async () => {
    const { api: app_ } = over.app.services;
    const { guide, stepid, fieldGuid } = await photoGuide(app_);
    const session = unwrap(await app_.startSession({ guideid: guide.guideid, workorderid: 'WO-PHOTO-AS' }));
    let mixed = false;
    over.proxy.setSchedule((request) => {
      if (mixed || request.method !== 'POST' || !request.path.startsWith('/api/2.0/user/media/uploads')) return PASS;
      mixed = true;
      const other = (text: string) =>
        JSON.stringify({ ...JSON.parse(text), id: 990_004, name: 'fg-00000000-0000-4000-8000-000000000000-other.png' });
      return { kind: 'rewrite', body: other } satisfies Fault;
    });
    try {
      const attach = { sessionId: session.id, stepid, fieldGuid };
      unwrap(await app_.attachFile({ ...attach, name: 'valve.png', mime: 'image/png', dataBase64: PHOTO_BASE64 }));
      for (let i = 0; i < 10 && unwrap(await app_.flushOutbox()).pending > 0; i++);
      expect(mixed).toBe(true);
      expect(unwrap(await app_.getOutbox()).summary).toMatchObject({ pending: 0, failed: 0 });
      const items = over.site.db
        .prepare("SELECT itemid FROM user_media WHERE userid = ? AND name LIKE 'fg-%-valve.png'")
        .all(tech1.userid) as { itemid: number }[];
      expect(items).toHaveLength(1);
      const { entryid } = unwrap(await app_.getSession(session.id));
      const value = over.site.db
        .prepare('SELECT value FROM work_log_data WHERE entryid = ? AND field_guid = ?')
        .get(entryid, fieldGuid) as { value: string };
      expect(value.value).toContain(String(items[0]!.itemid));
      expect(value.value).not.toContain('990004');
    } finally {
      over.proxy.passAll();
    }
  });
});
