import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuideDetail } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { startTestSite } from '../server/helpers.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { siteHttp } from '../../electron/core/api/http.ts';

// The order of a sync's media downloads, read from the requests the reference server receives over real
// HTTP. Media start while the guides phase still runs (issue 17: the link's round trips overlap): the last
// guide's answer is held until a media request has been made, or for 10 s, after which the test fails.
// Each guide's library picture is asked first, videos and documents after every picture known by then:
// a slow video must not hold back the pictures of the library (the thumbnails e2e test found it did).
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
const asked: string[] = [];
let lastGuide = 0;
let mediaAsked: () => void = () => {};
const firstMedia = new Promise<void>((resolve) => (mediaAsked = resolve));

const isMedia = (url: string): boolean => !new URL(url).pathname.startsWith('/api/');

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  lastGuide = (site.db.prepare('SELECT max(guideid) AS id FROM guides').get() as { id: number }).id;
  app = makeServices(undefined, {
    http: async (target, init) => {
      const url = target.href;
      if (new URL(url).pathname === `/api/2.0/guides/${lastGuide}`) {
        await Promise.race([firstMedia, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      }
      asked.push(url);
      if (isMedia(url)) mediaAsked();
      return siteHttp(target, init);
    },
  });
  unwrap(
    await app.services.api.signIn({
      siteUrl: site.url,
      email: DEMO_ACCOUNTS.tech1.email,
      password: DEMO_ACCOUNTS.tech1.password,
    }),
  );
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

/** A guide's library picture, the pictures its steps show, and its videos and documents. */
function mediaOf(guide: GuideDetail): { list: string | undefined; pictures: string[]; heavy: string[] } {
  const pictures: string[] = [];
  const heavy: string[] = guide.documents.map((d) => d.url);
  for (const step of guide.steps) {
    if (step.media.type === 'image')
      pictures.push(...step.media.images.map((i) => i.standard ?? i.thumbnail).filter((u): u is string => !!u));
    if (step.media.type === 'video') heavy.push(...step.media.encodings.map((e) => e.url));
  }
  return { list: guide.image?.thumbnail, pictures, heavy };
}

describe('the order of a sync’s media downloads', () => {
  it('starts while guides are still being stored', async () => {
    expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
    const lastGuideAsked = asked.findIndex((url) => new URL(url).pathname === `/api/2.0/guides/${lastGuide}`);
    expect(lastGuideAsked).toBeGreaterThan(0);
    expect(asked.findIndex(isMedia)).toBeGreaterThan(-1);
    expect(asked.findIndex(isMedia)).toBeLessThan(lastGuideAsked);
  });

  it('asks for each guide’s library picture first, and its videos and documents after its pictures', async () => {
    const media = asked.filter(isMedia);
    const guides = await Promise.all(
      (await allLocalGuides(app.services.api)).map(async (g) =>
        mediaOf(unwrap(await app.services.api.getGuide(g.guideid))),
      ),
    );
    // A file two guides share (the demo's maintenance log) was asked for with the first of them.
    const uses = new Map<string, number>();
    for (const g of guides)
      for (const url of new Set([g.list, ...g.pictures, ...g.heavy])) if (url) uses.set(url, (uses.get(url) ?? 0) + 1);
    const own = (url: string): boolean => uses.get(url) === 1;
    let checked = 0;
    for (const guide of guides) {
      const { list } = guide;
      const pictures = guide.pictures.filter(own);
      const heavy = guide.heavy.filter(own);
      const at = (url: string): number => media.indexOf(url);
      const asks = [...pictures, ...heavy].filter((url) => at(url) >= 0).map(at);
      if (list === undefined || !own(list) || asks.length === 0) continue;
      expect(at(list)).toBeGreaterThanOrEqual(0);
      expect(at(list)).toBeLessThanOrEqual(Math.min(...asks));
      const lastPicture = Math.max(...pictures.map(at));
      for (const url of heavy.filter((u) => at(u) >= 0)) expect(at(url)).toBeGreaterThan(lastPicture);
      checked++;
    }
    expect(checked).toBeGreaterThan(3);
  });
});
