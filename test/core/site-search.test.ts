import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { ServerModule } from '../../server/http/site-modules.ts';
import { DEMO_APP_ID, type Dialect } from '../../server/http/dialects.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { startRewriteProxy, type Rewrite } from '../helpers/rewrite-proxy.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { makeServices } from '../helpers/services.ts';

// Issue 25: the site's search never stands in the way of the local one. iFixit has no `/search/{q}`
// (it offers `/suggest/{query}`): its 404 ended a search in "The site answered to the search with an
// error (404)" although the guides were stored and FTS5 could answer. Now a site without `/search` is
// learned like a missing module, `/suggest` is used where offered, and any failure of the site's search
// shows the local results with a calm note.

const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

async function synced(
  options: { dialect?: Dialect; without?: ServerModule[]; rewrite?: Rewrite; timeoutMs?: number } = {},
) {
  const site: RunningSite = await startDemoSite({
    dialect: options.dialect ?? 'dozuki',
    without: options.without ?? [],
  });
  closing.push(() => site.close());
  const proxy = await startRewriteProxy(site.port);
  closing.push(() => proxy.close());
  const folder = makeTempDir('site-search');
  closing.push(async () => folder.remove());
  const first = makeServices(folder.dir);
  closing.push(() => first.services.close());
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await first.services.api.signIn({ siteUrl: proxy.url, email, password, appId: DEMO_APP_ID }));
  expect(unwrap(await first.services.api.syncNow()).status).toBe('complete');
  // A short time limit is for the search alone: the sync before it keeps the usual one, so a busy
  // machine does not fail the sync. The same folder is opened again with it, signed in as it was.
  let app = first;
  if (options.timeoutMs) {
    closing.pop();
    await first.services.close();
    app = makeServices(folder.dir, { requestTimeoutMs: options.timeoutMs });
    closing.push(() => app.services.close());
  }
  if (options.rewrite) proxy.set(options.rewrite);
  return app.services.api;
}

const siteSearch: (answer: Parameters<Rewrite>[0]) => boolean = ({ path }) =>
  /^\/api\/2\.0\/(search|suggest)\//.test(path);

describe("the site's search", () => {
  it("on an iFixit site is its /suggest, learned as the site's search", async () => {
    const api = await synced({ dialect: 'ifixit' });
    const found = unwrap(await api.search({ text: 'hydraulic hose' }));
    expect(found.source).toBe('site');
    expect(found.note ?? null).toBeNull();
    expect(found.items[0]?.title).toBe('Replace a Forklift Mast Hydraulic Hose');
    // What the library knows of the guide is shown with the site's answer (a suggestion carries no category).
    expect(found.items[0]?.category).toBe('Forklifts');
    expect(unwrap(await api.getStatus()).capabilities?.modules.search).toBe('offered');
  });

  it('on a site without one shows the local results with a calm note, and is learned missing', async () => {
    const api = await synced({ without: ['search'] });
    expect(unwrap(await api.getStatus()).capabilities?.modules.search).toBe('missing');
    const found = unwrap(await api.search({ text: 'hydraulic hose' }));
    expect(found.source).toBe('local');
    expect(found.note).toBe('This site has no search of its own: these are the guides on this computer.');
    expect(found.items.map((item) => item.title)).toContain('Replace a Forklift Mast Hydraulic Hose');
    const asked = await api.search({ text: 'hose', where: 'site' });
    expect(!asked.ok && asked.error.code).toBe('not_found');
  });

  it('failing shows the local results with a calm note', async () => {
    const api = await synced({
      rewrite: (request) => (siteSearch(request) ? { status: 500, body: '{"message":"Search is down"}' } : null),
    });
    const found = unwrap(await api.search({ text: 'hydraulic hose' }));
    expect(found.source).toBe('local');
    expect(found.note).toBe("The site's search failed (Search is down): these are the guides on this computer.");
    expect(found.items.map((item) => item.title)).toContain('Replace a Forklift Mast Hydraulic Hose');
  });

  it('not answering shows the local results once its time is up', { timeout: 30_000 }, async () => {
    const api = await synced({
      timeoutMs: 1500,
      rewrite: (request) => (siteSearch(request) ? new Promise(() => undefined) : null),
    });
    const found = unwrap(await api.search({ text: 'hydraulic hose' }));
    expect(found.source).toBe('local');
    expect(found.note).toBe("The site's search did not answer: these are the guides on this computer.");
    expect(found.items.length).toBeGreaterThan(0);
  });

  it('finds a kept guide by a part or a tool it needs, as the empty search suggests', async () => {
    // A walk searched the Parts and Tools of the belt guide ("AX-section", "Torque wrench"): nothing.
    const api = await synced({ without: ['search'] });
    for (const text of ['AX-section', 'torque wrench', 'ax sec']) {
      const found = unwrap(await api.search({ text }));
      expect(found.source).toBe('local');
      expect(found.items.map((item) => item.title)).toContain('Replace the Drive Belt on a 60-Gallon Air Compressor');
    }
  });
});
