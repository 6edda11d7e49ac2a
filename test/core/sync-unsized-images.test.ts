import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPicture, stepPicture } from '../../electron/shared/media.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { api } from '../server/helpers.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';

// A site whose images are not resized yet (iFixit's OpenAPI: "Ungenerated sizes are omitted from the
// object; id, guid, and original are always present"; an upload answers before its variants exist). A
// step's picture is then its original: kept by the first sync and shown offline, not left out. The guide's
// revision does not change when the site resizes them later, so nothing would fetch it again.
let site: RunningSite;
let app: ReturnType<typeof makeServices>;

beforeAll(async () => {
  site = await startDemoSite({ unsizedImages: true });
  app = makeServices();
  await signInAndSync(app.services, site.url);
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

describe('a site whose images have only their original', () => {
  it('answers so: an image object is id, guid and original', async () => {
    const [first] = (await api(site, 'GET', '/guides?limit=1')).body as { guideid: number }[];
    const guide = (await api(site, 'GET', `/guides/${first!.guideid}`)).body as { image: Record<string, unknown> };
    expect(Object.keys(guide.image).sort()).toEqual(['guid', 'id', 'original']);
  });

  it("keeps every step's picture and every guide's picture, readable offline", async () => {
    let pictures = 0;
    for (const { guideid } of await allLocalGuides(app.services.api)) {
      const guide = unwrap(await app.services.api.getGuide(guideid));
      const urls = [listPicture(guide.image)];
      for (const step of guide.steps) {
        if (step.media.type === 'image') urls.push(...step.media.images.map(stepPicture));
      }
      for (const url of urls) {
        expect(url, `guide ${guideid}`).toMatch(/\/igi\/[^.]+$/);
        const file = app.services.resolveMedia(url!);
        expect(file, url).not.toBeNull();
        expect(file!.mime).toMatch(/^image\//);
        pictures++;
      }
    }
    expect(pictures).toBeGreaterThan(20);
  });
});
