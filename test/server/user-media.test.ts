import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { makePdf } from '../../server/media/pdf.ts';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import type { DemoAccountName } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { mediaItem } from './content-schemas.ts';
import { api, expectError, expectShape, signInAll, startTestSite, type SignedIn } from './helpers.ts';
import { checkPaging } from './paging-checks.ts';

// Left out of the run's request check against iFixit's description (server/testing/request-check.ts).
const UNCHECKED = {
  uncheckedBecause: "the seed's media list and deletions, which the client never asks, and their refusals",
};

let site: RunningSite;
let who: Record<DemoAccountName, SignedIn>;
beforeAll(async () => {
  site = await startTestSite({ demo: true, ...UNCHECKED });
  who = await signInAll(site);
});
afterAll(() => site.close());

const PNG = encodePng(createCanvas(64, 48, [200, 30, 30]));
const upload = (name: string, bytes: Uint8Array, as: DemoAccountName = 'tech1', type = 'application/octet-stream') =>
  api(site, 'POST', '/user/media/uploads', {
    token: who[as].token,
    query: { file: name },
    body: bytes,
    headers: { 'Content-Type': type },
  });

describe('POST /user/media/uploads', () => {
  it('stores an image, a video and a document by file name, each fetchable by its owner', async () => {
    const own = { headers: { Authorization: `api ${who.tech1.token}` } };
    const image = expectShape(mediaItem, (await upload('belt tension.png', PNG)).body);
    expect(image).toMatchObject({
      type: 'GuideImage',
      name: 'belt tension.png',
      ready: true,
      image: { width: 64, height: 48 },
    });
    const served = Buffer.from(await (await fetch(image.image!.thumbnail, own)).arrayBuffer());
    expect(served.equals(PNG)).toBe(true);

    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(64)]);
    const video = await upload('horn-test.mp4', mp4);
    expect(video.status).toBe(201);
    expect(expectShape(mediaItem, video.body)).toMatchObject({
      type: 'GuideVideoObject',
      ready: false,
      status: 'processing',
    });
    const pdf = makePdf('Consumables log', ['Tip x2']);
    const doc = expectShape(mediaItem, (await upload('consumables.pdf', pdf)).body);
    expect(doc).toMatchObject({
      type: 'Document',
      document: { filename: 'consumables.pdf', size: pdf.length, mime: 'application/pdf' },
    });
    const file = await fetch(doc.document!.url, own);
    expect([file.headers.get('content-type'), Number(file.headers.get('content-length'))]).toEqual([
      'application/pdf',
      pdf.length,
    ]);
  });

  it('refuses what is not an upload of a known kind', async () => {
    expectError(
      await api(site, 'POST', '/user/media/uploads', {
        query: { file: 'a.png' },
        body: PNG,
        headers: { 'Content-Type': 'application/octet-stream' },
      }),
      401,
    );
    expectError(
      await api(site, 'POST', '/user/media/uploads', {
        token: who.tech1.token,
        body: PNG,
        headers: { 'Content-Type': 'application/octet-stream' },
      }),
      422,
      'file',
      'missing_field',
    );
    expectError(await upload('a.png', PNG, 'tech1', 'image/png'), 415);
    expectError(await upload('a.png', new Uint8Array(0)), 422, 'file', 'empty');
    expectError(await upload('a.exe', PNG), 422, 'file', 'invalid_value');
    expectError(await upload('fake.png', Buffer.from('not a picture at all')), 422, 'file');
  });
});

describe('GET and DELETE /user/media/{type}/{itemId}', () => {
  it("answers the caller's item; a video is processing at first look, then ready", async () => {
    const video = (await upload('clip.webm', Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4]))).body;
    const first = await api(site, 'GET', `/user/media/GuideVideoObject/${video.id}`, { token: who.tech1.token });
    expect(first.body).toMatchObject({ id: video.id, ready: false });
    const second = await api(site, 'GET', `/user/media/GuideVideoObject/${video.id}`, { token: who.tech1.token });
    expect(expectShape(mediaItem, second.body)).toMatchObject({ ready: true, status: 'ready' });
    expectError(await api(site, 'GET', `/user/media/GuideImage/${video.id}`, { token: who.tech1.token }), 404);
    expectError(await api(site, 'GET', `/user/media/GuideVideoObject/${video.id}`, { token: who.tech2.token }), 404);
    expectError(await api(site, 'GET', `/user/media/GuideVideoObject/${video.id}`), 401);
    const bad = await api(site, 'GET', `/user/media/Photo/${video.id}`, { token: who.tech1.token });
    expectError(bad, 400);
    expect(bad.body.message).toMatch(/^Invalid type provided in the route/);
  });

  it('deletes with 204', async () => {
    const image = (await upload('gone.png', PNG)).body;
    expectError(await api(site, 'DELETE', `/user/media/GuideImage/${image.id}`, { token: who.tech2.token }), 404);
    expectError(await api(site, 'DELETE', `/user/media/Bogus/${image.id}`, { token: who.tech1.token }), 400);
    const deleted = await api(site, 'DELETE', `/user/media/GuideImage/${image.id}`, { token: who.tech1.token });
    expect(deleted.status).toBe(204);
    expectError(await api(site, 'GET', `/user/media/GuideImage/${image.id}`, { token: who.tech1.token }), 404);
    const asOwner = { headers: { Authorization: `api ${who.tech1.token}` } };
    expect((await fetch(image.image.original, asOwner)).status).toBe(404);
  });

  it("GET /user/media/current lists the caller's items, paged", async () => {
    for (const name of ['a.png', 'b.png', 'c.png']) await upload(name, PNG, 'tech2');
    const get = (query: Record<string, string | number | undefined>) =>
      api(site, 'GET', '/user/media/current', { token: who.tech2.token, query });
    const items = await checkPaging(get, { key: (item: { id: number; name: string }) => item.id, total: 3 });
    expectShape(z.array(mediaItem), items);
    expect(items.map((i) => i.name)).toEqual(['a.png', 'b.png', 'c.png']);
    expectError(await api(site, 'GET', '/user/media/current'), 401);
  });
});

describe('media in step forms', () => {
  it("takes the id of the caller's media item of the field's kind as the value of an Image field", async () => {
    const guideid = DEMO_GUIDES.findIndex((g) => g.key === 'bandsaw-blade') + 1;
    const forms = (await api(site, 'GET', `/step_forms/guideid/${guideid}`)).body as {
      fields: { field_type: string; field_revisionid: number }[];
    }[];
    const imageField = forms.flatMap((f) => f.fields).find((f) => f.field_type === 'Image')!;
    const entry = (
      await api(site, 'POST', '/work_log', { token: who.tech1.token, json: { guideid, workorderid: 'WO-img' } })
    ).body;
    const photo = (await upload('tension.png', PNG)).body;
    const pdf = (await upload('notes.pdf', makePdf('x', []))).body;
    const other = (await upload('theirs.png', PNG, 'tech2')).body;
    const put = (value: unknown) =>
      api(site, 'PUT', `/work_log/${entry.entryid}/stepData`, {
        token: who.tech1.token,
        query: { revisionid: entry.revisionid },
        json: { fields: { [imageField.field_revisionid]: value } },
      });
    expectError(await put(pdf.id), 422, `fields.${imageField.field_revisionid}`);
    expectError(await put(other.id), 422, `fields.${imageField.field_revisionid}`);
    const saved = await put(photo.id);
    expect(saved.body.work_data[0].value).toBe(String(photo.id));
  });
});
