import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteHttp, type Http } from '../../electron/core/api/http.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { allLocalGuides, mediaOf, unwrap } from '../helpers/library.ts';
import { startRewriteProxy } from '../helpers/rewrite-proxy.ts';
import { makeServices } from '../helpers/services.ts';
import { startTestSite } from '../server/helpers.ts';
import { startListener, type Listener } from './http.ts';

// Issue 26, attack 5: the core downloaded whatever address a site named (only the scheme was checked):
// media pointing at another loopback port's admin routes, or at a LAN address over plain http, were
// fetched during a sync without asking. The core against the real reference server; a proxy rewrites one
// guide's answer as a hostile site would, and a listener on another loopback port plays the admin routes.
let site: RunningSite;
let proxy: Awaited<ReturnType<typeof startRewriteProxy>>;
let victim: Listener;
let hostile = 0;

/** The app's own HTTP client, watched: every address it was asked to reach. */
function watchedHttp(asked: string[]): Http {
  return (url, init) => {
    asked.push(url.toString());
    return siteHttp(url, init);
  };
}

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  victim = await startListener({ type: 'image/png', body: 'pwned' });
  const victimPort = victim.port;
  const first = site.db.prepare('SELECT guideid FROM guides ORDER BY guideid LIMIT 1').get() as { guideid: number };
  hostile = first.guideid;
  const targets = [
    `http://127.0.0.1:${victimPort}/admin/reset-all`,
    `http://localhost:${victimPort}/admin/users.json`,
    `http://[::ffff:7f00:1]:${victimPort}/admin/keys`,
    'http://192.168.77.7/router/config.png',
    'http://intranet/wiki/secret.png',
    'http://cdn.example.com/plain-http.png',
  ];
  proxy = await startRewriteProxy(site.port);
  proxy.set(async ({ path, headers }) => {
    if (path.split('?')[0] !== `/api/2.0/guides/${hostile}`) return null;
    const authorization = String(headers.authorization ?? '');
    const answer = await fetch(`${site.url}${path}`, { headers: { authorization } });
    type Images = { type: string; data: Record<string, string>[] };
    const guide = (await answer.json()) as { steps: { media: Images }[] };
    let next = 0;
    for (const step of guide.steps) {
      if (step.media.type !== 'image') continue;
      for (const image of step.media.data) {
        const target = targets[next++ % targets.length]!;
        for (const size of Object.keys(image)) {
          if (typeof image[size] === 'string' && size !== 'guid') image[size] = target;
        }
      }
    }
    return { body: JSON.stringify(guide) };
  });
});
afterAll(async () => {
  await proxy?.close();
  await site?.close();
  await victim?.close();
});

describe('media addresses a site names', () => {
  it("come from the site's own origin, never from this computer's other ports or the local network", async () => {
    const asked: string[] = [];
    const app = makeServices(undefined, { http: watchedHttp(asked) });
    try {
      const { email, password } = DEMO_ACCOUNTS.tech1;
      unwrap(await app.services.api.signIn({ siteUrl: proxy.url, email, password }));
      const outcome = unwrap(await app.services.api.syncNow());
      expect(victim.requests).toEqual([]);
      const foreign = asked.filter((url) => new URL(url).origin !== proxy.url);
      expect(foreign).toEqual([]);
      // Said, with what to do; the rest of the library is there.
      expect(outcome.status).toBe('failed');
      expect(outcome.error?.message).toMatch(/not fetched/);
      const guide = unwrap(await app.services.api.getGuide(hostile));
      expect(guide.guideid).toBe(hostile);
      expect((await allLocalGuides(app.services.api)).length).toBeGreaterThan(10);
    } finally {
      await app.dispose();
    }
  });

  it("a site's own media host on another port is fetched once the technician allowed it", async () => {
    const cdn = await startDemoSite({ mediaOrigin: true });
    const asked: string[] = [];
    const app = makeServices(undefined, { http: watchedHttp(asked) });
    try {
      const api = app.services.api;
      const { email, password } = DEMO_ACCOUNTS.tech1;
      unwrap(await api.signIn({ siteUrl: cdn.url, email, password }));
      const refused = unwrap(await api.syncNow());
      expect(refused.status).toBe('failed');
      expect(refused.error?.mediaOrigin).toBe(cdn.mediaUrl);
      expect(asked.some((url) => url.startsWith(cdn.mediaUrl!))).toBe(false);
      const status = unwrap(await api.allowMediaOrigin(cdn.mediaUrl!));
      expect(status.site?.mediaOrigins).toEqual([cdn.mediaUrl]);
      expect(unwrap(await api.syncNow()).status).toBe('complete');
      const guide = unwrap(await api.getGuide((await allLocalGuides(api))[0]!.guideid));
      const shown = mediaOf(guide).filter((url) => url.startsWith(cdn.mediaUrl!));
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.every((url) => app.services.resolveMedia(url) !== null)).toBe(true);
      // Only an address of the web is taken.
      expect((await api.allowMediaOrigin('file:///etc')).ok).toBe(false);
    } finally {
      await app.dispose();
      await cdn.close();
    }
  });
});
