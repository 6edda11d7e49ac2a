import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { startTestSite } from '../server/helpers.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// The order a sync downloads media in, read from the requests the reference server receives over real
// HTTP: every library row's picture first, then what the steps show, videos and documents last. A slow
// video must not hold back the pictures of the library (the thumbnails e2e test found it did).
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
const asked: string[] = [];

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  app = makeServices(undefined, {
    fetch: (input, init) => {
      asked.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    },
  });
  unwrap(await app.services.api.signIn({ siteUrl: site.url, email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password }));
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

describe('the order of a sync’s media downloads', () => {
  it('library pictures, then step pictures, then videos and documents', async () => {
    expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
    const guides = await allLocalGuides(app.services.api);
    const images = await Promise.all(guides.map(async (g) => unwrap(await app.services.api.getGuide(g.guideid)).image?.thumbnail));
    const listPictures = new Set(images.filter((url): url is string => typeof url === 'string'));
    expect(listPictures.size).toBeGreaterThan(3);

    const media = asked.filter((url) => !new URL(url).pathname.startsWith('/api/'));
    const heavy = (url: string): boolean => /^\/(video|documents)\//.test(new URL(url).pathname);
    const firstHeavy = media.findIndex(heavy);
    const lastList = Math.max(...[...listPictures].map((url) => media.indexOf(url)));
    const firstOther = media.findIndex((url) => !listPictures.has(url));
    const lastPicture = media.findLastIndex((url) => !heavy(url));

    expect(media.filter((url) => listPictures.has(url)).length).toBe(listPictures.size);
    expect(firstHeavy).toBeGreaterThan(0);
    expect(lastList).toBeLessThan(firstOther);
    expect(lastPicture).toBeLessThan(firstHeavy);
  });
});
