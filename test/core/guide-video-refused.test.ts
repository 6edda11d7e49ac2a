import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { DEMO_APP_ID } from '../../server/http/dialects.ts';
import { startDemoSite } from '../../server/site.ts';
import type { Fault } from '../fault/faults.ts';
import { startFaultProxy } from '../fault/proxy.ts';
import { always, onPaths } from '../fault/schedules.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// An iFixit site's video step carries only its video's id; GET /media/videos/{videoid} gives the rest, and
// answers 404 for an id it does not know and 403 for a video the viewer may not have (its OpenAPI
// description). Such an answer cost the whole guide: it was not kept, and the sync said the guide failed.
// Now the guide is kept, its video step in place, saying it has no playable file. Over real HTTP, the
// answers made by a proxy in front of the reference server in iFixit's dialect.

const DRAIN = DEMO_GUIDES.findIndex((guide) => guide.key === 'compressor-drain') + 1;
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

/** The reference site, and an app signed in as tech1 through a proxy answering video requests as `fault`. */
async function throughProxy(fault: Fault) {
  const site = await startDemoSite({ dialect: 'ifixit' });
  closing.push(() => site.close());
  const proxy = await startFaultProxy({ target: { port: site.port } });
  closing.push(() => proxy.close());
  proxy.setSchedule(onPaths(/\/media\/videos\/\d+/, always(fault)));
  const app = makeServices();
  closing.push(() => app.dispose());
  const { api } = app.services;
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await api.signIn({ siteUrl: proxy.url, email, password, appId: DEMO_APP_ID }));
  unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [DRAIN] }));
  return { api, proxy };
}

describe('a video the site will not give', () => {
  for (const status of [404, 403]) {
    it(`(${status}) leaves its guide kept, the step without a playable file`, async () => {
      const { api, proxy } = await throughProxy({ kind: 'status', status, message: 'Video not found' });

      expect(unwrap(await api.syncNow()).error).toBeNull();
      expect(proxy.requestsTo(/\/media\/videos\/\d+/).length).toBeGreaterThan(0);
      expect((await allLocalGuides(api)).find((guide) => guide.guideid === DRAIN)?.offline).toBe('full');
      const steps = unwrap(await api.getGuide(DRAIN)).steps;
      expect(steps.find((step) => step.title === 'Open the drain valve')?.media).toEqual({
        type: 'video',
        poster: null,
        encodings: [],
      });
      // The guide's other steps are as the site has them.
      expect(steps.find((step) => step.title === 'Reduce the tank pressure')?.media.type).toBe('image');
    });
  }
});

describe('a video answer with parts that do not read', () => {
  it('keeps the video with its encodings that do, without its poster', async () => {
    // iFixit's description requires none of a video's fields: a poster without its image, an encoding
    // without its address.
    const odd = (text: string): string => {
      const video = JSON.parse(text) as { image: unknown; encodings: unknown[] };
      return JSON.stringify({
        ...video,
        image: { srcid: null, width: 4 },
        encodings: [{ format: 'webm' }, ...video.encodings],
      });
    };
    const { api } = await throughProxy({ kind: 'rewrite', body: odd });
    expect(unwrap(await api.syncNow()).error).toBeNull();
    const step = unwrap(await api.getGuide(DRAIN)).steps.find((s) => s.title === 'Open the drain valve');
    expect(step?.media).toMatchObject({ type: 'video', poster: null });
    const encodings = step?.media.type === 'video' ? step.media.encodings : [];
    expect(encodings.length).toBeGreaterThan(0);
    for (const encoding of encodings) expect(encoding.url).toMatch(/^http/);
  });
});
