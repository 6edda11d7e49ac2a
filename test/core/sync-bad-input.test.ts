import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { api, signIn, startTestSite } from '../server/helpers.ts';
import { expectLibraryEqualsServer, serverRevisions } from '../helpers/convergence.ts';
import { unwrap } from '../helpers/library.ts';
import { startRewriteProxy } from '../helpers/rewrite-proxy.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';

// A server answer of the wrong shape, or not JSON at all: a clear error naming the resource, the
// library left as it was, and the next good sync completes.
let site: RunningSite;
let proxy: Awaited<ReturnType<typeof startRewriteProxy>>;
let app: ReturnType<typeof makeServices>;

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startRewriteProxy(site.port);
  app = makeServices();
  await signInAndSync(app.services, proxy.url);
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

async function snapshot(): Promise<string> {
  const page = unwrap(await app.services.api.listGuides({ limit: 500 }));
  const details = await Promise.all(page.items.map(async (g) => unwrap(await app.services.api.getGuide(g.guideid))));
  return JSON.stringify({ page, details });
}

describe('bad answers from the server', () => {
  it('a guide of the wrong shape fails the sync naming the guide, and keeps the stored revision', async () => {
    const admin = await signIn(site, 'admin');
    const [target] = [...(await serverRevisions(site)).entries()];
    const [guideid, revisionid] = target!;
    const before = await snapshot();
    expect(
      (
        await api(site, 'PATCH', `/guides/${guideid}`, {
          token: admin.token,
          query: { revisionid },
          json: { title: 'Changed on the site' },
        })
      ).status,
    ).toBe(200);

    proxy.set(({ path }) =>
      path.startsWith(`/api/2.0/guides/${guideid}?`) || path === `/api/2.0/guides/${guideid}`
        ? { body: '{"guideid": "seven", "steps": 3}' }
        : null,
    );
    const outcome = unwrap(await app.services.api.syncNow());
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.resource).toBe(`GET /guides/${guideid}`);
    expect(outcome.error?.message).toMatch(
      new RegExp(`^The site's answer for guide ${guideid} is not in the expected form`),
    );
    const state = unwrap(await app.services.api.getSyncState());
    expect(state.lastError?.resource).toBe(`GET /guides/${guideid}`);
    // Everything stored is as it was: the old revision of the changed guide included.
    const after = JSON.parse(await snapshot()) as { details: { guideid: number; title: string }[] };
    const original = JSON.parse(before) as { details: { guideid: number; title: string }[] };
    const byId = (list: { guideid: number }[]) => [...list].sort((a, b) => a.guideid - b.guideid);
    expect(byId(after.details)).toEqual(byId(original.details));
    expect(after.details.find((d) => d.guideid === guideid)?.title).not.toBe('Changed on the site');
  });

  it('a listing that is not JSON fails the sync naming the listing, and changes nothing', async () => {
    const before = await snapshot();
    proxy.set(({ path }) => (path.startsWith('/api/2.0/guides?') ? { body: '<html>Gateway error</html>' } : null));
    const outcome = unwrap(await app.services.api.syncNow());
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.resource).toBe('GET /guides');
    expect(outcome.error?.message).toBe("The site's answer for the list of guides could not be read (it is not JSON).");
    expect(await snapshot()).toBe(before);
  });

  it('the next good sync completes to the server state', async () => {
    proxy.set(null);
    expect(unwrap(await app.services.api.syncNow())).toMatchObject({ status: 'complete', error: null });
    expect(unwrap(await app.services.api.getSyncState()).lastError).toBeNull();
    await expectLibraryEqualsServer(app, site, 'after recovery');
  });
});
