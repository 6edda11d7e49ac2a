import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSite } from '../../server/generator/generator.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startSite, type RunningSite } from '../../server/site.ts';
import { startRewriteProxy } from '../helpers/rewrite-proxy.ts';
import { allLocalGuides, mediaOf, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// A workshop's guest Wi-Fi that shows its sign-in page first answers every address with that page, with
// 200 and text/html. The reference server over real HTTP behind a proxy that plays such a network: for
// the site's data the sync says what to do; a picture answered with the page is not kept in its place
// (on the old code it was, as opaque bytes, for good), and arrives once the network lets the site through.
const PORTAL = '<!doctype html><title>Guest Wi-Fi</title><form>Accept the terms to use this network</form>';
let site: RunningSite;
let proxy: Awaited<ReturnType<typeof startRewriteProxy>>;
let app: ReturnType<typeof makeServices>;

beforeAll(async () => {
  site = await startSite({ seed: (db) => void generateSite(db, { guides: 3, steps: 2, images: 1, seed: 7 }) });
  proxy = await startRewriteProxy(site.port);
  app = makeServices();
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

describe("a network's sign-in page in the way", () => {
  it('for the site data: the sync says it is a web page and what to do', async () => {
    proxy.set(({ path }) =>
      path.startsWith('/api/2.0/guides') ? { type: 'text/html; charset=utf-8', body: PORTAL } : null,
    );
    const outcome = unwrap(await app.services.api.syncNow());
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.message).toContain(
      'could not be read (it is not JSON). It is a web page: ' +
        'if this network shows a sign-in page first (guest Wi-Fi), sign in to it in a browser',
    );
  });

  it('for the pictures: none is kept in place of its picture, and each is named', async () => {
    proxy.set(({ path }) =>
      path.startsWith('/igi/') || path.startsWith('/api/2.0/media/') ? { type: 'text/html', body: PORTAL } : null,
    );
    const outcome = unwrap(await app.services.api.syncNow());
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.message).toMatch(/web page instead of the picture/);
    const guides = await allLocalGuides(app.services.api);
    expect(guides.length).toBe(3);
    const pictures = (
      await Promise.all(guides.map(async (g) => mediaOf(unwrap(await app.services.api.getGuide(g.guideid)))))
    ).flat();
    expect(pictures.length).toBeGreaterThan(0);
    for (const url of pictures) expect(app.services.resolveMedia(url), url).toBeNull();
  });

  it('once the network lets the site through, the next sync brings every picture', async () => {
    proxy.set(null);
    expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
    for (const { guideid } of await allLocalGuides(app.services.api)) {
      for (const url of mediaOf(unwrap(await app.services.api.getGuide(guideid))))
        expect(app.services.resolveMedia(url)?.mime, url).toMatch(/^image\//);
    }
  });
});
