import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_APP_ID } from '../../server/http/dialects.ts';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import type { RunningSite } from '../../server/site.ts';
import { startSite } from '../../server/site.ts';
import { seedDemoPeople } from '../../server/users/seed.ts';
import { api, MALFORMED_ON_PURPOSE, signIn, startTestSite, type SignedIn } from './helpers.ts';

// The reference server's `--dialect ifixit`: what iFixit's OpenAPI description of API 2.0 says real sites
// do where the seed's reference differs (server/http/dialect.ts), against the reference dialect.

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==',
  'base64',
);

describe('an iFixit-dialect site', () => {
  let site: RunningSite;
  let reference: RunningSite;
  let tech: SignedIn;
  beforeAll(async () => {
    [site, reference] = await Promise.all([
      startTestSite({ demo: true, dialect: 'ifixit' }),
      startTestSite({ demo: true }),
    ]);
    tech = await signIn(site, 'tech1');
  });
  afterAll(async () => {
    await Promise.all([site?.close(), reference?.close()]);
  });

  it('uses only the first 50 guideids and ignores limit and offset with them', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => i + 1);
    const answer = await api(site, 'GET', '/guides', { query: { guideids: ids.join(','), limit: 1, offset: 5 } });
    expect(answer.status).toBe(200);
    const listed = (answer.body as { guideid: number }[]).map((g) => g.guideid);
    const everyPublic = (await api(site, 'GET', '/guides', { query: { limit: 200 } })).body as { guideid: number }[];
    expect(listed).toEqual(everyPublic.map((g) => g.guideid).filter((id) => id <= 50));
    // The reference takes up to 200 and refuses more.
    expect((await api(reference, 'GET', '/guides', { query: { guideids: ids.join(',') } })).status).toBe(200);
  });

  it("inlines the prerequisites' steps, each of its own guide and numbered within it, unless excluded", async () => {
    const guide = (await api(site, 'GET', '/guides/11')).body as {
      prerequisites: { guideid: number }[];
      steps: { guideid: number; orderby: number }[];
    };
    expect(guide.prerequisites.map((p) => p.guideid)).toEqual([1, 10]);
    const owners = [...new Set(guide.steps.map((s) => s.guideid))];
    expect(owners).toEqual([1, 10, 11]);
    for (const owner of owners) {
      expect(guide.steps.filter((s) => s.guideid === owner).map((s) => s.orderby)[0]).toBe(1);
    }
    const excluded = (await api(site, 'GET', '/guides/11', { query: { excludePrerequisiteSteps: 'false' } })).body as {
      steps: { guideid: number }[];
    };
    expect(new Set(excluded.steps.map((s) => s.guideid))).toEqual(new Set([11]));
    const seed = (await api(reference, 'GET', '/guides/11')).body as { steps: { guideid: number }[] };
    expect(new Set(seed.steps.map((s) => s.guideid))).toEqual(new Set([11]));
  });

  it('answers errors as {error: true, message}, where the reference answers {message}', async () => {
    const missing = await api(site, 'GET', '/guides/99999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: true, message: expect.any(String) });
    const seed = await api(reference, 'GET', '/guides/99999');
    expect(seed.body).toEqual({ message: expect.any(String) });
  });

  it('searches with /suggest and has no /search; the reference the other way round', async () => {
    expect((await api(site, 'GET', '/search/hose')).status).toBe(404);
    const suggest = await api(site, 'GET', '/suggest/hose', { query: { doctypes: 'guide' } });
    expect(suggest.status).toBe(200);
    expect(suggest.body.query).toBe('hose');
    expect(suggest.body.results.map((r: { guideid: number }) => r.guideid)).toContain(11);
    expect((await api(site, 'GET', '/suggest/hose', { query: { doctypes: 'nonsense' } })).status).toBe(400);
    expect((await api(reference, 'GET', '/suggest/hose')).status).toBe(404);
    expect((await api(reference, 'GET', '/search/hose')).status).toBe(200);
  });

  it('refuses a sign-in without a known X-App-Id with 400 "Invalid app id"', async () => {
    const json = { email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password };
    for (const headers of [{}, { 'X-App-Id': 'not-ours' }] as Record<string, string>[]) {
      const refused = await api(site, 'POST', '/user/token', { json, headers });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: true, message: 'Invalid app id' });
    }
    expect((await api(site, 'POST', '/user/token', { json, headers: { 'X-App-Id': DEMO_APP_ID } })).status).toBe(201);
    expect((await api(reference, 'POST', '/user/token', { json })).status).toBe(201);
  });

  it('takes uploads on /user/media/images, answering the image, whose id a step value may name', async () => {
    expect(
      (await api(site, 'POST', '/user/media/uploads', { token: tech.token, query: { file: 'a.png' }, body: PNG_1X1 }))
        .status,
    ).toBe(404);
    const image = (body: Buffer) => ({
      token: tech.token,
      query: { file: 'photo.png' },
      body,
      headers: { 'Content-Type': 'image/png' },
    });
    // iFixit's description: "the minimum dimensions are 50x50 pixels".
    const tiny = await api(site, 'POST', '/user/media/images', image(PNG_1X1));
    expect({ status: tiny.status, body: tiny.body }).toEqual({
      status: 422,
      body: { error: true, message: 'The image must be at least 50x50 pixels (it is 1x1)' },
    });
    const upload = await api(site, 'POST', '/user/media/images', image(encodePng(createCanvas(50, 50))));
    expect(upload.status, upload.text).toBe(200);
    expect(upload.body.image.id).toEqual(expect.any(Number));
    const listed = await api(site, 'GET', '/user/media/images', { token: tech.token });
    expect(listed.body.map((item: { image: { id: number } }) => item.image.id)).toContain(upload.body.image.id);
    expect((await api(reference, 'GET', '/user/media/images', { token: tech.token })).status).toBe(404);
  });

  it('reads a guide in another language with langid, and in its own where it has no translation', async () => {
    const german = (await api(site, 'GET', '/guides/11', { query: { langid: 'de', excludePrerequisiteSteps: 'true' } }))
      .body;
    expect(german.langid).toBe('de');
    expect(german.title).toBe('Hydraulikschlauch am Hubmast eines Gabelstaplers ersetzen');
    expect(german.available_langids).toEqual(['en', 'de']);
    expect(german.steps[0].title).toBe('Abstellen und Gabeln absenken');
    const untranslated = (await api(site, 'GET', '/guides/3', { query: { langid: 'de' } })).body;
    expect(untranslated.langid).toBe('en');
    expect(untranslated.available_langids).toEqual(['en']);
    const german3 = { query: { langid: 'german' }, headers: MALFORMED_ON_PURPOSE };
    expect((await api(site, 'GET', '/guides/3', german3)).status).toBe(422);
  });

  it('gives a video step only its id, the video itself at /media/videos/{id}', async () => {
    const guides = (await api(site, 'GET', '/guides', { query: { limit: 200 } })).body as { guideid: number }[];
    let found: { videoid: number } | null = null;
    for (const { guideid } of guides) {
      const guide = (await api(site, 'GET', `/guides/${guideid}`, { query: { excludePrerequisiteSteps: 'true' } }))
        .body;
      const step = guide.steps.find((s: { media: { type: string } }) => s.media.type === 'video');
      if (step) {
        found = step.media.data;
        break;
      }
    }
    expect(found).toEqual({ videoid: expect.any(Number) });
    const video = await api(site, 'GET', `/media/videos/${found!.videoid}`);
    expect(video.body.encodings.length).toBeGreaterThan(0);
  });
});

describe('a site without search', () => {
  it('answers 404 at /search and /suggest alike', async () => {
    const site = await startSite({ without: ['search'], dialect: 'ifixit', seed: (db) => seedDemoPeople(db) });
    try {
      expect((await api(site, 'GET', '/search/hose')).status).toBe(404);
      expect((await api(site, 'GET', '/suggest/hose')).status).toBe(404);
    } finally {
      await site.close();
    }
  });
});
