import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppApi, GuideDetail } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { always, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { auditOf, doWork, expectOnSiteAs, photoAndQuizGuide } from '../helpers/technicians.ts';
import { api as siteApi, signIn, startTestSite, type SignedIn } from '../server/helpers.ts';

// A shared workshop laptop over real HTTP: two technicians work on it while the site is away, one signs
// out with work unsent, the other signs in offline and works; the site comes back. Each one's work must
// reach the site once, as theirs (the site's audit log names who made every change), and a technician
// whose token the site revoked meanwhile has their work wait, sent as nobody else, until they sign in.
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let api: AppApi;
let guide: GuideDetail;
let admin: SignedIn;
let tech1: SignedIn;
let tech2: SignedIn;

const password = (who: 'tech1' | 'tech2') => ({
  email: DEMO_ACCOUNTS[who].email,
  password: DEMO_ACCOUNTS[who].password,
});
const offline = () => proxy.setSchedule(always({ kind: 'reset' }));
const online = () => proxy.passAll();

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
  [admin, tech1, tech2] = await Promise.all([signIn(site, 'admin'), signIn(site, 'tech1'), signIn(site, 'tech2')]);
  const guideid = photoAndQuizGuide(site);
  app = makeServices();
  api = app.services.api;
  // Both have used this laptop before: tech2 first, then tech1, who synced the guide.
  unwrap(await api.signIn({ siteUrl: proxy.url, ...password('tech2') }));
  unwrap(await api.switchTechnician(password('tech1')));
  unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
  const synced = unwrap(await api.syncNow());
  expect(synced.status, synced.error?.message).toBe('complete');
  guide = unwrap(await api.getGuide(guideid));
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

async function flushUntilQuiet(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const summary = unwrap(await api.flushOutbox());
    if (summary.pending + summary.inFlight === 0) return;
  }
}

describe('a shared laptop, each technician under their own name', () => {
  it(
    'sends what tech1 did offline and signed out from as tech1, ' + 'and what tech2 did next as tech2, once each',
    async () => {
      offline();
      const first = await doWork(api, guide, 'WO-SHARED-1');
      const signedOut = unwrap(await api.signOut());
      expect(signedOut.user).toBeNull();

      // tech2 comes back to the laptop while the site is still
      // away: their sign-in was kept, the password is checked here.
      const status = unwrap(await api.switchTechnician(password('tech2')));
      expect(status.user?.userid).toBe(tech2.userid);
      expect(unwrap(await api.listSessions({}))).toEqual([]);
      expect(unwrap(await api.listQuizAttempts({}))).toEqual([]);
      expect(await api.getSession(first.session.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
      const waiting = unwrap(await api.getOutbox());
      expect(waiting.actions).toEqual([]);
      expect(waiting.summary.others).toEqual([
        expect.objectContaining({
          key: expect.stringContaining(`|${tech1.userid}`),
          username: DEMO_ACCOUNTS.tech1.username,
          signIn: 'signed_out',
          unsent: 8,
        }),
      ]);
      const second = await doWork(api, guide, 'WO-SHARED-2', 1);
      const queued = unwrap(await api.getOutbox()).summary;
      expect([queued.pending + queued.inFlight, queued.failed]).toEqual([8, 0]);

      // The site is back: tech2's work goes; tech1's waits for tech1, whose sign-in is not kept.
      online();
      await flushUntilQuiet();
      expect(unwrap(await api.getOutbox()).summary).toMatchObject({ pending: 0, inFlight: 0, failed: 0, conflicts: 0 });
      expect((await auditOf(site, 'work_log')).filter((a) => a.userid === tech1.userid)).toEqual([]);
      const mine = unwrap(await api.getSession(second.session.id));
      await expectOnSiteAs(site, admin.token, tech2.userid, second, mine, unwrap(await api.listQuizAttempts({}))[0]!);

      unwrap(await api.switchTechnician(password('tech1')));
      await flushUntilQuiet();
      const outbox = unwrap(await api.getOutbox());
      expect(outbox.summary).toMatchObject({ pending: 0, inFlight: 0, failed: 0, conflicts: 0, others: [] });
      const theirs = unwrap(await api.getSession(first.session.id));
      await expectOnSiteAs(site, admin.token, tech1.userid, first, theirs, unwrap(await api.listQuizAttempts({}))[0]!);
    },
  );

  it(
    "keeps tech1's work waiting, sent as nobody else, when the site revoked tech1's token meanwhile; " +
      'it goes once tech1 signs in',
    async () => {
      offline();
      const first = await doWork(api, guide, 'WO-REVOKED-1');
      // tech1 steps away without signing out (their sign-in stays kept); tech2 takes the laptop.
      unwrap(await api.switchTechnician(password('tech2')));
      const second = await doWork(api, guide, 'WO-REVOKED-2', 2);
      site.db.prepare('DELETE FROM tokens WHERE userid = ?').run(tech1.userid);
      const before = (await auditOf(site, 'work_log')).length;

      online();
      await flushUntilQuiet();
      const summary = unwrap(await api.getOutbox()).summary;
      expect(summary).toMatchObject({ pending: 0, inFlight: 0, failed: 0, conflicts: 0 });
      // tech1's work waits with the words of a refused sign-in: none of it went, under any name.
      expect(summary.others).toEqual([
        expect.objectContaining({ username: DEMO_ACCOUNTS.tech1.username, signIn: 'refused', unsent: 8 }),
      ]);
      const entries = unwrap(await api.listTechnicians());
      expect(entries.find((e) => e.userid === tech1.userid)).toMatchObject({
        signIn: 'refused',
        unsent: 8,
        failed: 0,
        current: false,
      });
      const applied = (await auditOf(site, 'work_log')).slice(before);
      expect(new Set(applied.map((a) => a.userid))).toEqual(new Set([tech2.userid]));
      await expectOnSiteAs(
        site,
        admin.token,
        tech2.userid,
        second,
        unwrap(await api.getSession(second.session.id)),
        unwrap(await api.listQuizAttempts({}))[0]!,
      );

      // With the site reachable a refused technician signs in with their password, and their work drains.
      unwrap(await api.switchTechnician(password('tech1')));
      await flushUntilQuiet();
      expect(unwrap(await api.getOutbox()).summary).toMatchObject({
        pending: 0,
        inFlight: 0,
        failed: 0,
        conflicts: 0,
        others: [],
      });
      await expectOnSiteAs(
        site,
        admin.token,
        tech1.userid,
        first,
        unwrap(await api.getSession(first.session.id)),
        unwrap(await api.listQuizAttempts({}))[0]!,
      );
    },
  );

  it("lets tech2 take over a session tech1 suspended here once tech1's actions in it have gone, as tech2", async () => {
    online();
    unwrap(await api.switchTechnician(password('tech1')));
    let session = unwrap(await api.startSession({ guideid: guide.guideid, workorderid: 'WO-HANDOVER' }));
    await flushUntilQuiet();
    // tech1's suspend waits (the site away): tech2 cannot take the session over before it has gone.
    offline();
    session = unwrap(await api.transitionSession({ sessionId: session.id, transition: 'suspend' }));
    unwrap(await api.switchTechnician(password('tech2')));
    const entryid = session.entryid!;
    expect(await api.assumeSession(entryid)).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        // Counted in words (it said "2 action(s)").
        message:
          `${DEMO_ACCOUNTS.tech1.username} has 1 action in this session that has not reached the site yet: ` +
          'it can be taken over once it has.',
      },
    });

    online();
    await flushUntilQuiet();
    unwrap(await api.switchTechnician(password('tech1')));
    await flushUntilQuiet();
    unwrap(await api.switchTechnician(password('tech2')));
    const taken = unwrap(await api.assumeSession(entryid));
    expect(taken).toMatchObject({ id: session.id, userid: tech2.userid, status: 'started' });
    expect(unwrap(await api.listSessions({})).map((s) => s.id)).toContain(session.id);
    await flushUntilQuiet();
    const applied = (await auditOf(site, 'work_log')).filter((a) => a.entity_id === String(entryid));
    expect(applied.map((a) => [a.path.replace(/^.*\/work_log(\/\d+)?/, ''), a.userid])).toEqual([
      ['', tech1.userid],
      ['/suspend', tech1.userid],
      ['/assume', tech2.userid],
    ]);
    unwrap(await api.switchTechnician(password('tech1')));
    expect(unwrap(await api.listSessions({})).map((s) => s.id)).not.toContain(session.id);
    // Gone from tech1's list, not without a word: who took it over here, and when (before: nothing at all).
    const told = unwrap(await api.listHandedOver()).takenFromYou;
    expect(told).toEqual([
      {
        workorderid: 'WO-HANDOVER',
        guideTitle: guide.title,
        takenBy: DEMO_ACCOUNTS.tech2.username,
        at: expect.any(Number),
      },
    ]);
    expect(Math.abs(told[0]!.at - Date.now() / 1000)).toBeLessThan(120);
  });

  it('a stale "handed over" row offline moves nothing: the session tech1 took back stays theirs, unseen', async () => {
    online();
    unwrap(await api.switchTechnician(password('tech1')));
    const started = unwrap(await api.startSession({ guideid: guide.guideid, workorderid: 'WO-TAKEN-BACK' }));
    unwrap(await api.transitionSession({ sessionId: started.id, transition: 'suspend' }));
    await flushUntilQuiet();
    const entryid = unwrap(await api.getSession(started.id)).entryid!;
    // tech2 sees it handed over (and this laptop learns the list), then tech1 takes it back.
    unwrap(await api.switchTechnician(password('tech2')));
    expect(unwrap(await api.listHandedOver()).sessions.map((s) => s.entryid)).toContain(entryid);
    unwrap(await api.switchTechnician(password('tech1')));
    unwrap(await api.assumeSession(entryid));
    await flushUntilQuiet();

    // The site away: tech2's list as last learned no longer offers it (before: it did, with Take over)…
    offline();
    unwrap(await api.switchTechnician(password('tech2')));
    const learned = unwrap(await api.listHandedOver());
    expect(learned.learnedAt).not.toBeNull();
    expect(learned.sessions.map((s) => s.entryid)).not.toContain(entryid);
    // …and a take-over asked anyway is refused, and changes nothing (before: refused, after the session had
    // moved to tech2 here: tech2 read tech1's values, and tech1 had no such session any more).
    const refused = await api.assumeSession(entryid);
    expect(await api.getSession(started.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    unwrap(await api.switchTechnician(password('tech1')));
    expect(unwrap(await api.getSession(started.id))).toMatchObject({ status: 'started', userid: tech1.userid });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_transition',
        message:
          'This session is no longer handed over: its technician is working on it again, so it cannot be taken over.',
      },
    });
    online();
    await flushUntilQuiet();
  });

  it('a session taken over on the site, learned by a sync here, is offered to nobody here, nor moved', async () => {
    online();
    unwrap(await api.switchTechnician(password('tech1')));
    const started = unwrap(await api.startSession({ guideid: guide.guideid, workorderid: 'WO-TAKEN-ON-SITE' }));
    unwrap(await api.transitionSession({ sessionId: started.id, transition: 'suspend' }));
    await flushUntilQuiet();
    const entryid = unwrap(await api.getSession(started.id)).entryid!;
    unwrap(await api.switchTechnician(password('tech2')));
    expect(unwrap(await api.listHandedOver()).sessions.map((s) => s.entryid)).toContain(entryid);
    // The admin takes it over on the site from another computer; tech1's next sync here learns it.
    const { revisionid } = (await siteApi(site, 'GET', `/work_log/${entryid}`, { token: admin.token })).body as {
      revisionid: number;
    };
    const assume = `/work_log/${entryid}/assume?revisionid=${revisionid}`;
    expect((await siteApi(site, 'POST', assume, { token: admin.token, json: {} })).status).toBe(200);
    unwrap(await api.switchTechnician(password('tech1')));
    expect(unwrap(await api.syncNow()).status).toBe('complete');
    expect(unwrap(await api.getSession(started.id)).siteDecided?.label).toBe(
      'Taken over on the site by another technician',
    );

    // The site away: tech2's list as last learned no longer offers it, and a take-over asked anyway moves
    // nothing (before: it went to tech2 here, with an assume of the admin's work queued under their name).
    offline();
    unwrap(await api.switchTechnician(password('tech2')));
    expect(unwrap(await api.listHandedOver()).sessions.map((s) => s.entryid)).not.toContain(entryid);
    expect(await api.assumeSession(entryid)).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_transition',
        message: 'This session was taken over on the site by another technician: it is no longer handed over.',
      },
    });
    expect(unwrap(await api.getOutbox()).actions).toEqual([]);
    unwrap(await api.switchTechnician(password('tech1')));
    expect(unwrap(await api.getSession(started.id)).siteDecided?.label).toBe(
      'Taken over on the site by another technician',
    );
    online();
  });

  it("never downloads the library again on a switch: the guides are the site's, shared", async () => {
    online();
    proxy.clearLog();
    unwrap(await api.switchTechnician(password('tech2')));
    unwrap(await api.switchTechnician(password('tech1')));
    expect(unwrap(await api.syncNow())).toMatchObject({ status: 'complete', changed: 0, mediaDownloaded: 0 });
    // The listing is asked (what changed since this site's cursor); no guide, form or file is fetched again.
    expect(proxy.requestsTo(/^\/api\/2\.0\/guides(\?|$)/, 'GET').length).toBeGreaterThan(0);
    expect(proxy.requestsTo(/^\/api\/2\.0\/(guides\/\d+|step_forms|media)/)).toEqual([]);
    expect(unwrap(await api.getGuide(guide.guideid)).title).toBe(guide.title);
  });
});
