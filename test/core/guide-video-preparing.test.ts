import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppApi } from '../../electron/contract.ts';
import { PREPARING_RETRY_SECONDS, PREPARING_TRIES } from '../../electron/core/sync/preparing-videos.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { DEMO_APP_ID } from '../../server/http/dialects.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { always, onPaths, passAll, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { api as siteApi, signIn } from '../server/helpers.ts';

// iFixit's GET /media/videos/{videoid} answers a video still transcoding with `meta.state` "processing" and
// no encodings (its OpenAPI description). A guide synced then was kept with a video step that had no
// playable file, and was not fetched again until the guide's revision changed, which a finished video does
// not do. Now the step says the site is still preparing it, and a later sync asks again, a bounded number
// of times. Over real HTTP: a proxy in front of the reference server in iFixit's dialect makes the answers;
// the app's clock is moved, not waited for.

const DRAIN = DEMO_GUIDES.findIndex((guide) => guide.key === 'compressor-drain') + 1;
const VIDEOS = /\/media\/videos\/\d+/;
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let api: AppApi;
let perFetch = 0;
let nowMs = Date.UTC(2026, 11, 7, 8, 0, 0);

const processing = (text: string): string => {
  const video = JSON.parse(text) as { meta: Record<string, unknown> | null };
  return JSON.stringify({ ...video, encodings: [], meta: { ...video.meta, state: 'processing' } });
};
const videoStep = async () =>
  unwrap(await api.getGuide(DRAIN)).steps.find((step) => step.title === 'Open the drain valve')?.media;
const asked = () => proxy.requestsTo(VIDEOS).length;
const sync = async () => expect(unwrap(await api.syncNow()).error).toBeNull();

beforeAll(async () => {
  site = await startDemoSite({ dialect: 'ifixit' });
  proxy = await startFaultProxy({ target: { port: site.port } });
  proxy.setSchedule(onPaths(VIDEOS, always({ kind: 'rewrite', body: processing })));
  app = makeServices(undefined, { clock: () => nowMs });
  api = app.services.api;
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await api.signIn({ siteUrl: proxy.url, email, password, appId: DEMO_APP_ID }));
  unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [DRAIN] }));
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

describe('a video the site is still preparing', () => {
  it('is kept on its step saying so, and not asked again by a sync at once', async () => {
    await sync();
    expect(await videoStep()).toMatchObject({ type: 'video', encodings: [], preparing: true });
    perFetch = asked();
    expect(perFetch).toBeGreaterThan(0);
    nowMs += 60_000;
    await sync();
    expect(asked()).toBe(perFetch);
  });

  it('is asked again at a later sync, and played once the site has it ready', async () => {
    proxy.setSchedule(passAll);
    nowMs += PREPARING_RETRY_SECONDS * 1000;
    await sync();
    const media = await videoStep();
    expect(media).toMatchObject({ type: 'video' });
    expect(media?.type === 'video' && media.encodings.length > 0).toBe(true);
    expect(media).not.toHaveProperty('preparing');
    // Ready: not asked again.
    const ready = asked();
    nowMs += PREPARING_RETRY_SECONDS * 1000;
    await sync();
    expect(asked()).toBe(ready);
  });

  it('is asked again only so many times while the site keeps preparing it', { timeout: 60_000 }, async () => {
    // A new revision of the guide, whose video the site is preparing again.
    const admin = await signIn(site, 'admin');
    const { revisionid } = (await siteApi(site, 'GET', `/guides/${DRAIN}`)).body as { revisionid: number };
    const patch = { token: admin.token, query: { revisionid }, json: { summary: 'Drain the tank daily.' } };
    expect((await siteApi(site, 'PATCH', `/guides/${DRAIN}`, patch)).status).toBe(200);
    proxy.setSchedule(onPaths(VIDEOS, always({ kind: 'rewrite', body: processing })));
    const before = asked();
    for (let n = 0; n < PREPARING_TRIES + 3; n++) {
      await sync();
      nowMs += PREPARING_RETRY_SECONDS * 1000;
    }
    // The new revision's fetch, then PREPARING_TRIES more, and no more.
    expect(asked() - before).toBe((1 + PREPARING_TRIES) * perFetch);
    expect(await videoStep()).toMatchObject({ preparing: true });
  });
});
