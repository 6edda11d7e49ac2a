import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { MAX_GUIDE_ATTEMPTS } from '../../electron/core/sync/guides-phase.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';

const guideIdOf = (key: string): number => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;
import { allLocalGuides, mediaOf, unwrap } from '../helpers/library.ts';
import { startRewriteProxy } from '../helpers/rewrite-proxy.ts';
import { api, signIn } from '../server/helpers.ts';
import { makeServices } from '../helpers/services.ts';

// Issue 15, acceptance 3: one guide answering 500 and another answering bad JSON on every request. Every
// other guide and all media are stored; the sync names both guides with the site's message; the next
// syncs ask for them at most as the retry bound allows (requests counted at the proxy); Retry asks at once.
let site: RunningSite;
let proxy: Awaited<ReturnType<typeof startRewriteProxy>>;
let app: ReturnType<typeof makeServices>;
let nowMs = Date.UTC(2026, 10, 23, 12);
const asked = new Map<number, number>();
let broken: number;
let garbled: number;

beforeAll(async () => {
  site = await startDemoSite({});
  const listed = (await (await fetch(`${site.apiUrl}/guides?limit=200`)).json()) as { guideid: number }[];
  // Two guides no other guide needs: a guide fails with a prerequisite that cannot be read.
  const needed = new Set(DEMO_GUIDES.flatMap((guide) => guide.prereqs ?? []).map(guideIdOf));
  const alone = listed.filter((guide) => !needed.has(guide.guideid)).map((guide) => guide.guideid);
  [broken, garbled] = [alone[0]!, alone[1]!];
  proxy = await startRewriteProxy(site.port);
  proxy.set(({ method, path }) => {
    const match = /^\/api\/2\.0\/guides\/(\d+)(\?|$)/.exec(path);
    const guideid = Number(match?.[1]);
    if (method !== 'GET' || (guideid !== broken && guideid !== garbled)) return null;
    asked.set(guideid, (asked.get(guideid) ?? 0) + 1);
    return guideid === broken
      ? { status: 500, body: '{"message": "The guide store is being rebuilt"}' }
      : { body: '{"guideid": 1, "steps": [' };
  });
  app = makeServices(undefined, { clock: () => nowMs });
  unwrap(
    await app.services.api.signIn({
      siteUrl: proxy.url,
      email: DEMO_ACCOUNTS.tech1.email,
      password: DEMO_ACCOUNTS.tech1.password,
    }),
  );
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

describe('a guide that fails is the guide failure, not the sync', () => {
  it(
    'stores every other guide and all their media, and names both guides with the site message',
    { timeout: 60_000 },
    async () => {
      const outcome = unwrap(await app.services.api.syncNow());
      const titles = new Map(
        unwrap(await app.services.api.listGuides({ limit: 500 })).items.map((g) => [g.guideid, g.title]),
      );
      const failed = new Map(outcome.failedGuides.map((f) => [f.guideid, f]));
      expect([...failed.keys()].sort()).toEqual([broken, garbled].sort());
      expect(failed.get(broken)).toMatchObject({
        title: titles.get(broken),
        message: 'The guide store is being rebuilt',
        resource: `GET /guides/${broken}`,
        attempts: 1,
      });
      expect(failed.get(garbled)?.title).toBe(titles.get(garbled));
      expect(failed.get(garbled)?.message).toMatch(/could not be read \(it is not JSON\)/);
      expect(failed.get(broken)?.nextAttemptAt).not.toBeNull();
      // The sync centre reads the same list.
      expect(
        unwrap(await app.services.api.getSyncState())
          .failedGuides.map((f) => f.guideid)
          .sort(),
      ).toEqual([broken, garbled].sort());

      const stored = (await allLocalGuides(app.services.api)).filter(
        (g) => g.guideid !== broken && g.guideid !== garbled,
      );
      expect(stored.length).toBeGreaterThan(0);
      for (const { guideid, offline } of stored) {
        expect(offline, `guide ${guideid}`).toBe('full');
        for (const url of mediaOf(unwrap(await app.services.api.getGuide(guideid))))
          expect(app.services.resolveMedia(url), url).not.toBeNull();
      }
      // The quiz list and the media phase ran.
      expect(outcome.mediaDownloaded).toBeGreaterThan(0);
      expect(unwrap(await app.services.api.listQuizzes()).length).toBeGreaterThan(0);
    },
  );

  it(
    'asks for them again at most as the bound allows, then not until Retry, which asks at once',
    { timeout: 60_000 },
    async () => {
      // Ten syncs a day apart: every wait is over at each, so only the bound holds the requests back.
      for (let sync = 0; sync < 10; sync++) {
        nowMs += 24 * 60 * 60 * 1000;
        unwrap(await app.services.api.syncNow());
      }
      // A 500 may pass, so it is tried twice in a sync; an answer that is not JSON once.
      expect(asked.get(broken)).toBe(2 * MAX_GUIDE_ATTEMPTS);
      expect(asked.get(garbled)).toBe(MAX_GUIDE_ATTEMPTS);
      const state = unwrap(await app.services.api.getSyncState());
      expect(state.failedGuides.every((f) => f.nextAttemptAt === null && f.attempts === MAX_GUIDE_ATTEMPTS)).toBe(true);

      // A new revision on the site starts its count afresh: it is asked at the next sync.
      const admin = await signIn(site, 'admin');
      const { revisionid } = (await api(site, 'GET', `/guides/${garbled}`)).body as { revisionid: number };
      expect(
        (
          await api(site, 'PATCH', `/guides/${garbled}`, {
            token: admin.token,
            query: { revisionid },
            json: { title: 'Changed on the site' },
          })
        ).status,
      ).toBe(200);
      const beforeChange = asked.get(garbled)!;
      unwrap(await app.services.api.syncNow());
      expect(asked.get(garbled)).toBe(beforeChange + 1);
      expect(
        unwrap(await app.services.api.getSyncState()).failedGuides.find((f) => f.guideid === garbled),
      ).toMatchObject({ title: 'Changed on the site', attempts: 1 });

      const before = new Map(asked);
      const retried = unwrap(await app.services.api.retryGuides([broken, garbled]));
      expect(asked.get(broken)).toBe(before.get(broken)! + 2);
      expect(asked.get(garbled)).toBe(before.get(garbled)! + 1);
      expect(retried.failedGuides.find((f) => f.guideid === broken)?.attempts).toBe(1);
      expect(retried.failedGuides.find((f) => f.guideid === garbled)?.attempts).toBe(1);

      // Once the site answers again, they are stored.
      proxy.set(null);
      nowMs += 24 * 60 * 60 * 1000;
      const healed = unwrap(await app.services.api.syncNow());
      expect(healed.status).toBe('complete');
      expect(healed.failedGuides).toEqual([]);
    },
  );
});
