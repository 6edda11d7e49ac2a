import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_CHANGE } from '../../server/demo/change-guide.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { DEMO_APP_ID, type Dialect } from '../../server/http/dialects.ts';
import type { RunningSite } from '../../server/site.ts';
import { ApiTransport } from '../../electron/core/api/transport.ts';
import { fetchGuideReleases } from '../../electron/core/api/releases-api.ts';
import { always, onPaths, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { signIn, startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// Issue 30: the site's release notes of a guide that changed since a technician read it, over real HTTP.
// The sync reads them with that guide only (no request for an unchanged guide, nor for a changed one
// nobody here read), keeps them, and the changes banner shows them with no network. An iFixit site has
// no releases: its 404 shows nothing and is no error.

const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;
const BELT = id('compressor-belt');
const DRAIN = id('compressor-drain');

interface Laptop {
  site: RunningSite;
  proxy: FaultProxy;
  app: ReturnType<typeof makeServices>;
}

const closing: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

/** A demo site of `dialect` behind a fault proxy, tech2 and tech1 signed in (tech1 working), synced. */
async function laptop(dialect: Dialect): Promise<Laptop> {
  const site = await startTestSite({ demo: true, dialect });
  closing.push(() => site.close());
  const proxy = await startFaultProxy({ target: { port: site.port } });
  closing.push(() => proxy.close());
  const app = makeServices();
  closing.push(() => app.dispose());
  for (const who of ['tech2', 'tech1'] as const) {
    const { email, password } = DEMO_ACCOUNTS[who];
    unwrap(await app.services.api.signIn({ siteUrl: proxy.url, email, password, appId: DEMO_APP_ID }));
  }
  expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
  return { site, proxy, app };
}

/** The demo page's button: a new revision of the guide with step 3 reworded, a step added, a release note. */
async function publishChange(site: RunningSite, guideid: number): Promise<void> {
  const answer = await fetch(`${site.url}/demo/change/${guideid}`, { method: 'POST', redirect: 'manual' });
  expect(answer.status).toBe(303);
}

const releaseRequests = (proxy: FaultProxy) => proxy.requestsTo(/\/releases(\?|$)/).map((entry) => entry.path);

describe('release notes on a Dozuki site', () => {
  let dozuki: Laptop;
  beforeAll(async () => {
    dozuki = await laptop('dozuki');
    // tech1 reads the belt guide (opening it remembers the revision read); nobody reads the drain guide.
    expect(unwrap(await dozuki.app.services.api.guideChanges(BELT))).toBeNull();
  });

  it('are read with the guide tech1 read, kept, and shown with its changes with no network', async () => {
    const { site, proxy, app } = dozuki;
    expect(releaseRequests(proxy)).toEqual([]);
    proxy.clearLog();
    await publishChange(site, BELT);
    await publishChange(site, DRAIN);
    const outcome = unwrap(await app.services.api.syncNow());
    expect(outcome).toMatchObject({ status: 'complete', error: null, failedGuides: [] });
    expect(outcome.changed).toBeGreaterThanOrEqual(2);
    // Only the changed guide someone here had read: not the drain guide, changed but never read here.
    expect(releaseRequests(proxy)).toEqual([`/api/2.0/guides/${BELT}/releases`]);

    proxy.setSchedule(always({ kind: 'reset' }));
    const changes = unwrap(await app.services.api.guideChanges(BELT))!;
    // The note of the new revision only: the first release was of the revision tech1 had read.
    expect(changes.releases).toEqual([
      {
        releaseid: expect.any(Number),
        revisionid: changes.toRevisionid,
        title: DEMO_CHANGE.release,
        notes: DEMO_CHANGE.notes(3),
        releasedAt: expect.any(Number),
        by: DEMO_ACCOUNTS.author.username,
      },
    ]);
    expect(changes.steps.map((step) => step.kind).sort()).toEqual(['added', 'changed']);
    proxy.passAll();
  });

  it('cost no request at a sync where no guide changed', async () => {
    const { proxy, app } = dozuki;
    proxy.clearLog();
    expect(unwrap(await dozuki.app.services.api.syncNow()).status).toBe('complete');
    expect(proxy.log.length).toBeGreaterThan(0);
    expect(releaseRequests(proxy)).toEqual([]);
    // Still kept for tech1 until they have seen the change.
    expect(unwrap(await app.services.api.guideChanges(BELT))!.releases).toHaveLength(1);
  });

  it("are the guide's own: another guide's release listed with them is not its news", async () => {
    const { site, proxy } = dozuki;
    const { token } = await signIn(site, 'tech1');
    const withOther = (text: string) => {
      const list = JSON.parse(text) as Record<string, unknown>[];
      return JSON.stringify([...list, { ...list[0], releaseid: 990_007, guideid: DRAIN, title: 'Of another guide' }]);
    };
    proxy.setSchedule(onPaths(/\/releases$/, always({ kind: 'rewrite', body: withOther }), 'GET'));
    try {
      const transport = new ApiTransport({ siteUrl: proxy.url, token, appId: DEMO_APP_ID });
      const notes = await fetchGuideReleases(transport, BELT);
      expect(notes.length).toBeGreaterThan(0);
      expect(notes.map((note) => note.title)).not.toContain('Of another guide');
    } finally {
      proxy.passAll();
    }
  });

  it('are not shown to tech2, who never read the guide here', async () => {
    const { email, password } = DEMO_ACCOUNTS.tech2;
    unwrap(await dozuki.app.services.api.switchTechnician({ email, password }));
    expect(unwrap(await dozuki.app.services.api.guideChanges(BELT))).toBeNull();
  });
});

describe('an iFixit site, which has no releases', () => {
  it('shows the changes with no release note, and the sync is not troubled by its 404', async () => {
    const { site, proxy, app } = await laptop('ifixit');
    expect(unwrap(await app.services.api.guideChanges(BELT))).toBeNull();
    proxy.clearLog();
    await publishChange(site, BELT);
    const outcome = unwrap(await app.services.api.syncNow());
    expect(outcome).toMatchObject({ status: 'complete', error: null, failedGuides: [] });
    const asked = proxy.requestsTo(/\/releases(\?|$)/);
    expect(asked.map((entry) => entry.path)).toEqual([`/api/2.0/guides/${BELT}/releases`]);
    const changes = unwrap(await app.services.api.guideChanges(BELT))!;
    expect(changes.releases).toEqual([]);
    expect(changes.steps.length).toBeGreaterThan(0);
  });
});
