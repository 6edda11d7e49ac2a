import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSite } from '../../server/generator/generator.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startSite, type RunningSite } from '../../server/site.ts';
import { startRewriteProxy } from '../helpers/rewrite-proxy.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { api, signIn } from '../server/helpers.ts';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../../electron/core/db/data-folder.ts';
import { CURSOR_KEY } from '../../electron/core/sync/context.ts';

// A site from outside our world: its guide list ignores `offset` (every page is the first one), or
// ignores `limit` (one page holds every guide); its quiz list ignores `offset` and always says more follow;
// asked which of our guides it still has, it ignores `guideids` or answers nothing; asked for one guide,
// it answers another; one of its guides is dated in the year 2100. The reference server over real HTTP, through a proxy
// that rewrites the listing's query as such a site would read it. On the old listing the first case
// never ended: it stored the same 200 guides page after page, for ever.
const GUIDES = 450;
let site: RunningSite;
let proxy: Awaited<ReturnType<typeof startRewriteProxy>>;
const apps: ReturnType<typeof makeServices>[] = [];
let listings = 0;

beforeAll(async () => {
  site = await startSite({ seed: (db) => void generateSite(db, { guides: GUIDES, steps: 1, images: 0, seed: 5 }) });
  proxy = await startRewriteProxy(site.port);
});
afterAll(async () => {
  for (const app of apps) await app.dispose();
  await proxy?.close();
  await site?.close();
});

/** Rewrites the query of every guide listing (`GET /api/2.0/guides?…`) with `change`. */
function listingsRead(change: (query: URLSearchParams) => void): void {
  listings = 0;
  proxy.set(({ method, path }) => {
    const url = new URL(path, 'http://site');
    if (method !== 'GET' || url.pathname !== '/api/2.0/guides' || !url.searchParams.has('offset')) return null;
    listings++;
    change(url.searchParams);
    return { forward: `${url.pathname}?${url.searchParams}` };
  });
}

async function signedIn(): Promise<ReturnType<typeof makeServices>> {
  const app = makeServices();
  apps.push(app);
  unwrap(
    await app.services.api.signIn({
      siteUrl: proxy.url,
      email: DEMO_ACCOUNTS.tech1.email,
      password: DEMO_ACCOUNTS.tech1.password,
    }),
  );
  unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: [] }));
  return app;
}

describe('a site whose guide list ignores offset', () => {
  it('stops listing at the repeated page, says why, and keeps the summaries it read', { timeout: 60_000 }, async () => {
    listingsRead((query) => query.set('offset', '0'));
    const app = await signedIn();
    const outcome = unwrap(await app.services.api.syncNow());
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.message).toMatch(/same guides again .* does not seem to page its list of guides/);
    expect(listings).toBe(2);
    expect((await allLocalGuides(app.services.api)).length).toBe(200);
  });
});

describe('a site whose guide list ignores limit', () => {
  it('lists every guide once, from the one page that holds them all', { timeout: 60_000 }, async () => {
    // Every guide from the offset on, in one answer (the reference server pages at 200 at most).
    listings = 0;
    proxy.set(async ({ method, path, headers }) => {
      const url = new URL(path, 'http://site');
      if (method !== 'GET' || url.pathname !== '/api/2.0/guides' || !url.searchParams.has('offset')) return null;
      listings++;
      const all: unknown[] = [];
      for (let offset = Number(url.searchParams.get('offset')); ; offset += 200) {
        url.searchParams.set('offset', String(offset));
        const page = (await (
          await fetch(`${site.url}${url.pathname}?${url.searchParams}`, {
            headers: { Authorization: String(headers.authorization) },
          })
        ).json()) as unknown[];
        all.push(...page);
        if (page.length < 200) return { body: JSON.stringify(all) };
      }
    });
    const app = await signedIn();
    const outcome = unwrap(await app.services.api.syncNow());
    expect(outcome, JSON.stringify(outcome.error)).toMatchObject({ status: 'complete' });
    const listed = (await allLocalGuides(app.services.api)).length;
    expect(listed).toBeGreaterThan(400);
    // The first page, then the (empty) page after everything it held.
    expect(listings).toBe(2);
  });
});

describe('a site whose quiz list ignores offset and always says more follow', () => {
  it(
    'stops reading the quiz list at the repeated page and says why; the guides are all there',
    { timeout: 60_000 },
    async () => {
      // A full page of quizzes (no revision to fetch) for every offset, each ending "more results".
      const page = JSON.stringify({
        results: Array.from({ length: 200 }, (_, i) => ({
          quizid: 9000 + i,
          quizRevisionid: null,
          title: `Quiz ${i}`,
        })),
        moreResults: true,
      });
      let quizPages = 0;
      proxy.set(({ method, path }) => {
        if (method !== 'POST' || !path.startsWith('/api/2.0/quizzes/getQuizzes')) return null;
        quizPages++;
        return { body: page };
      });
      const app = await signedIn();
      const outcome = unwrap(await app.services.api.syncNow());
      expect(outcome.error?.message).toMatch(/same quizzes again .* does not seem to page its list of quizzes/);
      // The capabilities probe, then the list's first page and the repeated one.
      expect(quizPages).toBe(3);
      expect((await allLocalGuides(app.services.api)).length).toBeGreaterThan(400);
    },
  );
});

describe('a site whose guide list ignores guideids when asked which guides it still has', () => {
  // The deletion check asks `GET /guides?guideids=…` at every sync after the first.
  const deletionCheck = (path: string) => {
    const url = new URL(path, 'http://site');
    return url.pathname === '/api/2.0/guides' && url.searchParams.has('guideids') ? url : null;
  };

  it('answering a page of other guides: nothing is removed, and the sync says why', { timeout: 60_000 }, async () => {
    proxy.set(null);
    const app = await signedIn();
    expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
    const before = (await allLocalGuides(app.services.api)).length;
    expect(before).toBeGreaterThan(400);
    proxy.set(({ method, path }) => {
      const url = method === 'GET' ? deletionCheck(path) : null;
      if (!url) return null;
      url.searchParams.delete('guideids');
      return { forward: `${url.pathname}?${url.searchParams}` };
    });
    const outcome = unwrap(await app.services.api.syncNow());
    expect(outcome.error?.message).toMatch(/sent other guides than the ones asked about, so no guide was removed/);
    expect(outcome.deleted).toBe(0);
    expect((await allLocalGuides(app.services.api)).length).toBe(before);
  });

  it(
    'answering nothing: the guides it left out still open on their own, so nothing is removed',
    { timeout: 60_000 },
    async () => {
      proxy.set(null);
      const app = await signedIn();
      expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
      const before = (await allLocalGuides(app.services.api)).length;
      proxy.set(({ method, path }) => (method === 'GET' && deletionCheck(path) ? { body: '[]' } : null));
      const outcome = unwrap(await app.services.api.syncNow());
      expect(outcome.error?.message).toMatch(/left out guides it still has, so no guide was removed/);
      expect((await allLocalGuides(app.services.api)).length).toBe(before);
    },
  );
});

describe('a guide the site made private after it was synced', () => {
  it(
    'is removed from a technician who may no longer read it: the confirming request answers 403',
    { timeout: 60_000 },
    async () => {
      proxy.set(null);
      const app = await signedIn();
      expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
      const ids = (await allLocalGuides(app.services.api)).map((g) => g.guideid).sort((x, y) => x - y);
      const hidden = ids[ids.length - 2]!;
      const admin = await signIn(site, 'admin');
      const current = await api(site, 'GET', `/guides/${hidden}`, { token: admin.token });
      expect(
        (
          await api(site, 'PATCH', `/guides/${hidden}`, {
            token: admin.token,
            query: { revisionid: current.body.revisionid },
            json: { public: false },
          })
        ).status,
      ).toBe(200);
      const outcome = unwrap(await app.services.api.syncNow());
      expect(outcome).toMatchObject({ status: 'complete', deleted: 1 });
      expect((await allLocalGuides(app.services.api)).map((g) => g.guideid)).not.toContain(hidden);
      // Public again for the tests that follow.
      const now = await api(site, 'GET', `/guides/${hidden}`, { token: admin.token });
      expect(
        (
          await api(site, 'PATCH', `/guides/${hidden}`, {
            token: admin.token,
            query: { revisionid: now.body.revisionid },
            json: { public: true },
          })
        ).status,
      ).toBe(200);
    },
  );
});

describe('a site that answers the request for one guide with another guide', () => {
  it(
    'keeps neither under the wrong id: the guide asked for fails with the reason, the other is itself',
    { timeout: 60_000 },
    async () => {
      proxy.set(null);
      const app = await signedIn();
      expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
      const ids = (await allLocalGuides(app.services.api)).map((g) => g.guideid).sort((x, y) => x - y);
      const [asked, answered] = [ids[0]!, ids[1]!];
      const guideAsked = new RegExp(`^/api/2\\.0/guides/${asked}(\\?|$)`);
      proxy.set(({ method, path }) =>
        method === 'GET' && guideAsked.test(path) ? { forward: `/api/2.0/guides/${answered}` } : null,
      );
      unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: [asked, answered] }));
      const outcome = unwrap(await app.services.api.syncNow());
      expect(outcome.failedGuides.map((f) => [f.guideid, f.message])).toEqual([
        [asked, `The site answered the request for guide ${asked} with guide ${answered}, so it was not kept.`],
      ]);
      const local = new Map((await allLocalGuides(app.services.api)).map((g) => [g.guideid, g]));
      expect(local.get(asked)?.offline).not.toBe('full');
      expect(local.get(answered)?.offline).toBe('full');
      expect(unwrap(await app.services.api.getGuide(answered)).guideid).toBe(answered);
    },
  );
});

describe('a site with one guide dated in the year 2100', () => {
  it(
    'does not move the listing past its own time: a guide changed after that sync still arrives',
    { timeout: 60_000 },
    async () => {
      const YEAR_2100 = 4_102_444_800;
      proxy.set(null);
      const app = await signedIn();
      // Every listing says the first guide it holds was modified in 2100 (the bad data of one guide).
      proxy.set(async ({ method, path, headers }) => {
        const url = new URL(path, 'http://site');
        if (method !== 'GET' || url.pathname !== '/api/2.0/guides' || !url.searchParams.has('offset')) return null;
        const page = (await (
          await fetch(`${site.url}${path}`, { headers: { Authorization: String(headers.authorization) } })
        ).json()) as { modified_date: number }[];
        if (page[0]) page[0].modified_date = YEAR_2100;
        return { body: JSON.stringify(page) };
      });
      expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');

      // A guide the site changes after that sync.
      const admin = await signIn(site, 'admin');
      const ids = (await allLocalGuides(app.services.api)).map((g) => g.guideid).sort((x, y) => x - y);
      const target = ids[ids.length - 1]!;
      const current = await api(site, 'GET', `/guides/${target}`, { token: admin.token });
      const patched = await api(site, 'PATCH', `/guides/${target}`, {
        token: admin.token,
        query: { revisionid: current.body.revisionid },
        json: { title: 'Changed after the first sync' },
      });
      expect(patched.status).toBe(200);

      expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
      const after = unwrap(await app.services.api.listGuides({ limit: 500 })).items;
      expect(after.find((g) => g.guideid === target)?.title).toBe('Changed after the first sync');
    },
  );
});

describe('a library whose cursor an older version moved to the year 2100', () => {
  it('lists from the beginning once, so the changes it hid arrive', { timeout: 60_000 }, async () => {
    proxy.set(null);
    const first = await signedIn();
    expect(unwrap(await first.services.api.syncNow()).status).toBe('complete');
    const dataDir = first.dataDir;
    const target = Math.max(...(await allLocalGuides(first.services.api)).map((g) => g.guideid));
    await first.services.close();
    const db = new Database(path.join(dataDir, DATABASE_FILE));
    db.prepare('UPDATE settings SET value = ? WHERE key = ?').run('4102444800', CURSOR_KEY);
    expect(db.prepare('SELECT value FROM settings WHERE key = ?').get(CURSOR_KEY)).toEqual({ value: '4102444800' });
    db.close();

    const admin = await signIn(site, 'admin');
    const current = await api(site, 'GET', `/guides/${target}`, { token: admin.token });
    expect(
      (
        await api(site, 'PATCH', `/guides/${target}`, {
          token: admin.token,
          query: { revisionid: current.body.revisionid },
          json: { title: 'Changed while the cursor was lost' },
        })
      ).status,
    ).toBe(200);

    // The same data folder opened again (the first app is closed; its folder goes with it at the end).
    const again = makeServices(dataDir);
    try {
      expect(unwrap(await again.services.api.syncNow()).status).toBe('complete');
      expect(
        unwrap(await again.services.api.listGuides({ limit: 500 })).items.find((g) => g.guideid === target)?.title,
      ).toBe('Changed while the cursor was lost');
    } finally {
      await again.services.close();
    }
  });
});
