import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppApi } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import type { RunningSite } from '../../server/site.ts';
import { audit } from '../fault/helpers.ts';
import { always, failFirst, onPaths, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { allLocalGuides, flushUntilQuiet, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { api as siteApi, signIn, startTestSite, type SignedIn } from '../server/helpers.ts';

// Favourites and completions on a shared laptop, over real HTTP to the reference server: set with no
// network, queued under the technician who set them, sent once; each technician's own read back at sync;
// a favourite kept whole whatever the offline scope.
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let api: AppApi;
let tech1: SignedIn;
let tech2: SignedIn;

const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;
const password = (who: 'tech1' | 'tech2') => ({
  email: DEMO_ACCOUNTS[who].email,
  password: DEMO_ACCOUNTS[who].password,
});
const offline = () => proxy.setSchedule(always({ kind: 'reset' }));
const online = () => proxy.passAll();
const inScope = id('lockout');

const siteFavorites = (userid: number): number[] =>
  (
    site.db.prepare('SELECT guideid FROM favorites WHERE userid = ? ORDER BY guideid').all(userid) as {
      guideid: number;
    }[]
  ).map((row) => row.guideid);
const siteCompleted = (userid: number, guideid: number): boolean =>
  site.db.prepare('SELECT 1 FROM completions WHERE userid = ? AND guideid = ?').get(userid, guideid) !== undefined;
const offlineOf = async (guideid: number) => (await allLocalGuides(api)).find((g) => g.guideid === guideid)?.offline;

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
  [tech1, tech2] = await Promise.all([signIn(site, 'tech1'), signIn(site, 'tech2')]);
  app = makeServices();
  api = app.services.api;
  unwrap(await api.signIn({ siteUrl: proxy.url, ...password('tech2') }));
  unwrap(await api.switchTechnician(password('tech1')));
  // One guide kept whole by choice; the favourites are kept whole whatever the scope.
  unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [inScope] }));
  const first = unwrap(await api.syncNow());
  expect(first.error).toBeNull();
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

describe('favourites', () => {
  it("reads each technician's own favourites from the site, and keeps them whole outside the scope", async () => {
    expect(unwrap(await api.listFavoriteGuideIds()).sort((a, b) => a - b)).toEqual(siteFavorites(tech1.userid));
    for (const guideid of siteFavorites(tech1.userid)) expect(await offlineOf(guideid)).toBe('full');
    expect(await offlineOf(id('lathe-chuck'))).toBe('summary');
    // The favourites were fetched first.
    const fetched = proxy.log
      .map((entry) => /\/guides\/(\d+)\?excludePrerequisiteSteps/.exec(entry.path)?.[1])
      .filter((guideid) => guideid !== undefined)
      .map(Number);
    const favorites = siteFavorites(tech1.userid);
    expect(fetched.slice(0, favorites.length).sort((a, b) => a - b)).toEqual(favorites);
  });

  it("sends a favourite toggled offline once, as tech1's, the latest toggle winning; tech2's stay theirs", async () => {
    const lathe = id('lathe-chuck');
    const before = await audit(site, 'favorites');
    offline();
    for (const on of [true, false, true]) unwrap(await api.setGuideMark(lathe, 'favorite', on));
    expect(unwrap(await api.getGuideMarks(lathe))).toMatchObject({ favorite: true, waiting: { favorite: true } });
    proxy.clearLog();
    expect(unwrap(await api.getMyGuides()).favorites.map((f) => f.guideid)).toContain(lathe);

    online();
    await flushUntilQuiet(api);
    expect(siteFavorites(tech1.userid)).toContain(lathe);
    expect(siteFavorites(tech2.userid)).not.toContain(lathe);
    const sent = (await audit(site, 'favorites')).slice(before.length);
    expect(sent.map((entry) => [entry.method, entry.entity_id])).toEqual([['PUT', `${tech1.userid}:${lathe}`]]);
    // The toggle in between never reached the site: only the latest (a first one already on its way
    // when the site went away may reach it too, with the same state).
    const reached = proxy.requestsTo(new RegExp(`/user/favorites/guides/${lathe}$`)).filter((r) => r.forwarded);
    expect(reached.map((r) => r.method)).not.toContain('DELETE');
    expect(unwrap(await api.getGuideMarks(lathe)).waiting.favorite).toBe(false);

    // The next sync keeps the new favourite whole though it is outside the scope.
    expect(unwrap(await api.syncNow()).status).toBe('complete');
    expect(await offlineOf(lathe)).toBe('full');

    unwrap(await api.switchTechnician(password('tech2')));
    expect(unwrap(await api.syncNow()).status).toBe('complete');
    expect(unwrap(await api.listFavoriteGuideIds()).sort((a, b) => a - b)).toEqual(siteFavorites(tech2.userid));
    expect(unwrap(await api.getGuideMarks(lathe)).favorite).toBe(false);
    unwrap(await api.switchTechnician(password('tech1')));
  });

  it("keeps a toggle still waiting over the site's list at sync, then sends it", async () => {
    const belt = id('compressor-belt');
    expect(siteFavorites(tech1.userid)).toContain(belt);
    // The site answers the sync but not the favourite's own request.
    proxy.setSchedule(onPaths(/\/user\/favorites\/guides\/\d+/, always({ kind: 'reset' })));
    unwrap(await api.setGuideMark(belt, 'favorite', false));
    expect(unwrap(await api.syncNow()).status).toBe('complete');
    expect(unwrap(await api.getGuideMarks(belt))).toMatchObject({ favorite: false, waiting: { favorite: true } });
    online();
    await flushUntilQuiet(api);
    expect(siteFavorites(tech1.userid)).not.toContain(belt);
    expect(unwrap(await api.syncNow()).status).toBe('complete');
    expect(unwrap(await api.getGuideMarks(belt)).favorite).toBe(false);
  });
});

describe('a switch of technician while a sync reads the site', () => {
  it("leaves each one's favourites their own", async () => {
    // tech1 has a favourite on the site that tech2 has not.
    const only1 = id('lathe-chuck');
    await siteApi(site, 'PUT', `/user/favorites/guides/${only1}`, { token: tech1.token });
    expect(siteFavorites(tech1.userid)).toContain(only1);
    expect(siteFavorites(tech2.userid)).not.toContain(only1);
    // tech1's sync waits on the site's listing, which comes before the favourites: tech2 switches in then.
    const listing = /\/api\/2\.0\/guides\?/;
    proxy.setSchedule(failFirst(1, { kind: 'delay', ms: 1_500 }, { paths: listing, method: 'GET' }));
    try {
      const syncing = api.syncNow();
      await vi.waitFor(() => expect(proxy.requestsTo(listing, 'GET').length).toBeGreaterThan(0));
      unwrap(await api.switchTechnician(password('tech2')));
      expect(unwrap(await syncing).status).toBe('complete');
      // tech1's favourites, read with tech1's sign-in, stayed tech1's.
      expect(unwrap(await api.listFavoriteGuideIds()).sort((a, b) => a - b)).toEqual(siteFavorites(tech2.userid));
      expect(unwrap(await api.getGuideMarks(only1)).favorite).toBe(false);
    } finally {
      online();
      unwrap(await api.switchTechnician(password('tech1')));
    }
    expect(unwrap(await api.getGuideMarks(only1)).favorite).toBe(true);
  });
});

describe('completions', () => {
  it('sends "Mark as done" made offline once, as the technician who made it', async () => {
    const guideid = inScope;
    expect(siteCompleted(tech1.userid, guideid)).toBe(false);
    const before = await audit(site, 'completions');
    offline();
    expect(unwrap(await api.setGuideMark(guideid, 'completed', true))).toMatchObject({ completed: true });
    expect(unwrap(await api.getMyGuides()).completed.map((c) => c.guideid)).toContain(guideid);
    online();
    await flushUntilQuiet(api);
    await flushUntilQuiet(api);
    expect(siteCompleted(tech1.userid, guideid)).toBe(true);
    expect(siteCompleted(tech2.userid, guideid)).toBe(false);
    const sent = (await audit(site, 'completions')).slice(before.length);
    expect(sent.map((entry) => [entry.method, entry.entity_id])).toEqual([['PUT', `${tech1.userid}:${guideid}`]]);
    const onSite = await siteApi(site, 'GET', '/user/completions', { token: tech1.token });
    expect((onSite.body as { guideid: number }[]).map((g) => g.guideid)).toContain(guideid);
  });

  it("waits out the site's rate limit (iFixit's 420) rather than failing the mark", async () => {
    const guideid = id('lathe-chuck');
    proxy.setSchedule(failFirst(1, { kind: 'status', status: 420, message: 'Slow down' }, { paths: /completed$/ }));
    unwrap(await api.setGuideMark(guideid, 'completed', true));
    // Its first try, the outbox's own (gone while the answer waited for the disk) or Send now's, meets the 420.
    await vi.waitFor(async () => {
      const waiting = unwrap(await api.getOutbox()).actions.find((a) => a.kind === 'completed');
      if (!waiting?.error) unwrap(await api.flushOutbox());
      expect(waiting?.error).toContain('limits how fast');
    });
    expect(unwrap(await api.getOutbox()).summary).toMatchObject({ pending: 1, failed: 0 });
    expect(siteCompleted(tech1.userid, guideid)).toBe(false);
    await flushUntilQuiet(api);
    expect(siteCompleted(tech1.userid, guideid)).toBe(true);
    online();
  });

  it('shows recently used guides: those opened here', async () => {
    unwrap(await api.noteGuideOpened(id('lathe-chuck')));
    unwrap(await api.noteGuideOpened(inScope));
    // A guide the library does not have is not remembered.
    unwrap(await api.noteGuideOpened(99_999));
    const recent = unwrap(await api.getMyGuides()).recent.map((r) => r.guideid);
    // Both in the same second here: their order is the SQL's (newest first, then by id), not checked.
    expect(recent).toEqual(expect.arrayContaining([inScope, id('lathe-chuck')]));
    expect(recent).not.toContain(99_999);
  });
});

describe("a site that ignores the completions list's offset", () => {
  it('is asked for a second page, not 500, and the completions here stay as they were', async () => {
    const first = await siteApi(site, 'GET', '/user/completions', {
      token: tech1.token,
      query: { offset: 0, limit: 200 },
    });
    expect((first.body as unknown[]).length).toBeGreaterThan(0);
    const page = JSON.stringify(first.body);
    const completed = async () =>
      unwrap(await api.getMyGuides())
        .completed.map((c) => c.guideid)
        .sort((a, b) => a - b);
    const before = await completed();
    const list = /\/user\/completions\?/;
    proxy.clearLog();
    proxy.setSchedule(onPaths(list, always({ kind: 'rewrite', body: () => page }), 'GET'));
    try {
      const outcome = unwrap(await api.syncNow());
      expect(proxy.requestsTo(list, 'GET')).toHaveLength(2);
      expect(JSON.stringify(outcome)).toContain('does not seem to page its list of completed guides');
    } finally {
      online();
    }
    expect(await completed()).toEqual(before);
  });
});
