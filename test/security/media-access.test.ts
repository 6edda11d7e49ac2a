import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, type DemoAccountName } from '../../server/demo-accounts.ts';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { api, signInAll, startTestSite, type SignedIn } from '../server/helpers.ts';

// Issue 26, attack 1: with no token, `GET /api/2.0/media/images/<n>` then `/igi/<guid>` gave another
// technician's uploaded photo, `/media/videos/<n>` and `/video/<guid>/...` their video (ids are
// sequential), and a private guide's step pictures were served to anyone although the guide answered
// 401/403. The reference server over real HTTP, as any client (or a stranger) calls it.
let site: RunningSite;
let who: Record<DemoAccountName, SignedIn>;
let photo: { id: number; imageid: number; url: string };
let video: { videoid: number; url: string };
let privateGuide: { guideid: number; picture: string; document: string | null };
let publicPicture: string;

const PNG = encodePng(createCanvas(64, 48, [20, 120, 30]));
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(64)]);
const upload = async (name: string, bytes: Uint8Array) => {
  const headers = { 'Content-Type': 'application/octet-stream' };
  const options = { token: who.tech1.token, query: { file: name }, body: bytes, headers };
  const answer = await api(site, 'POST', '/user/media/uploads', options);
  expect(answer.status).toBe(201);
  return answer.body;
};
/** A GET of a file with a demo account's token, or none. */
const get = (url: string, as?: DemoAccountName) =>
  fetch(url, as ? { headers: { Authorization: `api ${who[as].token}` } } : {});

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  who = await signInAll(site);
  const image = await upload('serial-plate.png', PNG);
  photo = { id: image.id, imageid: image.image.id, url: image.image.original };
  const clip = await upload('leak.mp4', MP4);
  video = { videoid: clip.video.videoid, url: clip.video.encodings[0].url };
  const hidden = `SELECT g.guideid FROM guides g JOIN guide_revisions r ON r.revisionid = g.revisionid
    WHERE r.public = 0`;
  const { guideid } = site.db.prepare(hidden).get() as { guideid: number };
  const guide = (await api(site, 'GET', `/guides/${guideid}`, { token: who.author.token })).body;
  const step = guide.steps.find((s: { media: { type: string } }) => s.media.type === 'image');
  const document = guide.documents[0]?.url ?? null;
  privateGuide = { guideid, picture: step.media.data[0].standard, document };
  const listed = (await api(site, 'GET', '/guides', { query: { limit: 1 } })).body;
  publicPicture = (await api(site, 'GET', `/guides/${listed[0].guideid}`)).body.steps[0].media.data[0].standard;
});
afterAll(() => site?.close());

describe("a technician's uploads are theirs", () => {
  it('a photo: neither its detail nor its file answers a stranger or another technician', async () => {
    expect((await api(site, 'GET', `/media/images/${photo.imageid}`)).status).toBe(401);
    expect((await get(photo.url)).status).toBe(401);
    expect((await get(`${photo.url}.thumbnail`)).status).toBe(401);
    expect((await api(site, 'GET', `/media/images/${photo.imageid}`, { token: who.tech2.token })).status).toBe(403);
    expect((await get(photo.url, 'tech2')).status).toBe(403);
    // Its owner and an admin read it.
    const own = await get(photo.url, 'tech1');
    expect(own.status).toBe(200);
    expect(Buffer.from(await own.arrayBuffer()).equals(PNG)).toBe(true);
    expect(own.headers.get('cache-control')).toMatch(/^private/);
    expect((await get(photo.url, 'admin')).status).toBe(200);
    expect((await api(site, 'GET', `/media/images/${photo.imageid}`, { token: who.tech1.token })).status).toBe(200);
  });

  it('a video: the same for its detail and its encodings', async () => {
    expect((await api(site, 'GET', `/media/videos/${video.videoid}`)).status).toBe(401);
    expect((await get(video.url)).status).toBe(401);
    expect((await get(video.url, 'tech2')).status).toBe(403);
    expect((await get(video.url, 'tech1')).status).toBe(200);
  });
});

describe("a private guide's pictures follow the guide", () => {
  it('its step pictures and documents answer only those who may read the guide', async () => {
    expect((await api(site, 'GET', `/guides/${privateGuide.guideid}`)).status).toBe(401);
    expect((await get(privateGuide.picture)).status).toBe(401);
    expect((await get(privateGuide.picture, 'tech1')).status).toBe(403);
    expect((await get(privateGuide.picture, 'author')).status).toBe(200);
    expect((await get(privateGuide.picture, 'admin')).status).toBe(200);
    if (privateGuide.document) expect((await get(privateGuide.document)).status).toBe(401);
  });

  it("a public guide's pictures stay public, as on a CDN", async () => {
    const answer = await get(publicPicture);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toMatch(/^public/);
  });
});

describe('media on another origin (a CDN that takes no credentials)', () => {
  it('points at it for public pictures only; private ones stay on the site, behind the token', async () => {
    const cdn = await startDemoSite({ mediaOrigin: true });
    try {
      const author = { email: DEMO_ACCOUNTS.author.email, password: DEMO_ACCOUNTS.author.password };
      const token = (await api(cdn, 'POST', '/user/token', { json: author })).body.authToken;
      const read = async (guideid: number) => (await api(cdn, 'GET', `/guides/${guideid}`, { token })).body;
      const hidden = await read(privateGuide.guideid);
      const step = hidden.steps.find((s: { media: { type: string } }) => s.media.type === 'image');
      const picture: string = step.media.data[0].standard;
      expect(new URL(picture).origin).toBe(cdn.url);
      expect((await fetch(picture)).status).toBe(401);
      expect((await fetch(picture, { headers: { Authorization: `api ${token}` } })).status).toBe(200);
      // The CDN has only what is public.
      expect((await fetch(picture.replace(cdn.url, cdn.mediaUrl!))).status).toBe(401);
      const shown = (await read(1)).steps[0].media.data[0].standard as string;
      expect(new URL(shown).origin).toBe(cdn.mediaUrl);
      expect((await fetch(shown)).status).toBe(200);
    } finally {
      await cdn.close();
    }
  });
});
