import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServerDb } from '../../server/db/open.ts';
import { SCHEMA } from '../../server/db/schema.ts';
import { makePdf, pdfPages } from '../../server/media/pdf.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { IMAGE_SIZES, variantDimensions } from '../../server/media/image-sizes.ts';
import { imageSize } from '../../server/media/png.ts';
import type { RunningSite } from '../../server/site.ts';
import { imageDetail, videoDetail } from './content-schemas.ts';
import { api, expectError, expectShape, startTestSite } from './helpers.ts';

let site: RunningSite;
beforeAll(async () => {
  site = await startTestSite({ demo: true });
});
afterAll(() => site.close());

const fetchBytes = async (url: string, init?: RequestInit) => {
  const response = await fetch(url, init);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
};

const guideOf = async (key: string) =>
  (await api(site, 'GET', `/guides/${DEMO_GUIDES.findIndex((g) => g.key === key) + 1}`)).body;

describe('images', () => {
  it('GET /media/images/{id or guid} answers the image detail', async () => {
    const guide = await guideOf('compressor-belt');
    const byId = await api(site, 'GET', `/media/images/${guide.image.id}`);
    const detail = expectShape(imageDetail, byId.body);
    expect(detail).toMatchObject({ width: 1024, height: 768, ratio: 'FOUR_THREE', image: guide.image });
    expect((await api(site, 'GET', `/media/images/${guide.image.guid}`)).body).toEqual(byId.body);
    expectError(await api(site, 'GET', '/media/images/999999'), 404);
    expectError(await api(site, 'GET', '/media/images/NoSuchGuid'), 404);
  });

  it('serves every size variant as a PNG of the variant size, the same bytes each time', async () => {
    const guide = await guideOf('compressor-belt');
    const image = guide.steps[0].media.data[0];
    for (const size of IMAGE_SIZES) {
      const { response, bytes } = await fetchBytes(image[size]);
      expect(response.status, size).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
      expect(imageSize(bytes)).toEqual(variantDimensions(size, 1024, 768));
    }
    const again = await fetchBytes(image.thumbnail);
    const first = await fetchBytes(image.thumbnail);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    const head = await fetch(image.medium, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect((await fetch(`${image.original}.gigantic`)).status).toBe(404);
    expect((await fetch(`${site.url}/igi/NoSuchGuid.thumbnail`)).status).toBe(404);
    expect((await fetch(`${site.url}/flags/DANGER.png`)).headers.get('content-type')).toBe('image/png');
    expect((await fetch(`${site.url}/flags/NOPE.png`)).status).toBe(404);
  });
});

describe('videos', () => {
  it('GET /media/videos/{id or guid} answers the video detail with encodings', async () => {
    const guide = await guideOf('compressor-drain');
    const stepVideo = guide.steps.find((step: { media: { type: string } }) => step.media.type === 'video').media.data;
    const answer = await api(site, 'GET', `/media/videos/${stepVideo.videoid}`);
    const detail = expectShape(videoDetail, answer.body);
    expect(answer.body).toEqual(stepVideo);
    expect((await api(site, 'GET', `/media/videos/${stepVideo.guid}`)).body).toEqual(stepVideo);
    expect(detail.encodings.map((e) => e.mime).sort()).toEqual(['video/mp4', 'video/mp4', 'video/webm']);
    expectError(await api(site, 'GET', '/media/videos/4242'), 404);
  });

  it('serves each encoding with its type and length, and byte ranges', async () => {
    const detail = (await api(site, 'GET', '/media/videos/1')).body;
    for (const [index, encoding] of detail.encodings.entries()) {
      const { response, bytes } = await fetchBytes(encoding.url);
      expect(response.headers.get('content-type')).toBe(encoding.mime);
      expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
      if (index === 0) {
        expect(bytes.length).toBe(detail.meta.file_size_in_bytes);
        expect(createHash('md5').update(bytes).digest('hex')).toBe(detail.meta.md5_checksum);
      }
      const part = await fetchBytes(encoding.url, { headers: { Range: 'bytes=10-19' } });
      expect(part.response.status).toBe(206);
      expect(part.response.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);
      expect(part.bytes.equals(bytes.subarray(10, 20))).toBe(true);
      expect((await fetch(encoding.url, { headers: { Range: `bytes=${bytes.length}-` } })).status).toBe(416);
    }
    expect((await fetch(`${site.url}/video/${detail.guid}/nope.mp4`)).status).toBe(404);
  });
});

describe('documents', () => {
  it('serves a guide document as a PDF of the stated size', async () => {
    const guide = await guideOf('forklift-inspection');
    const [doc] = guide.documents;
    const { response, bytes } = await fetchBytes(doc.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(Number(response.headers.get('content-length'))).toBe(doc.size);
    expect(bytes.toString('latin1', 0, 5)).toBe('%PDF-');
    expect((await fetch(`${site.url}/documents/${doc.guid}/other.pdf`)).status).toBe(404);
  });

  it("says a document's pages as iFixit's Document does, the count a PDF reader finds in the file", async () => {
    const guide = await guideOf('forklift-inspection');
    const [doc] = guide.documents;
    const tmp = makeTempDir('pdf-pages');
    try {
      const file = path.join(tmp.dir, 'doc.pdf');
      fs.writeFileSync(file, (await fetchBytes(doc.url)).bytes);
      // poppler's pdfinfo (installed by .ci/run), a reader that is not this server's code.
      const read = /^Pages:\s+(\d+)$/m.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }));
      expect(doc.pages).toBe(Number(read![1]));
    } finally {
      tmp.remove();
    }
  });

  it('counts page objects, not the page tree, and says nothing of a file it cannot read', () => {
    const pages = (count: number) =>
      Buffer.from(
        '%PDF-1.4\n1 0 obj << /Type /Pages /Count 3 >> endobj\n' +
          Array.from({ length: count }, (_, i) => `${i + 2} 0 obj <</Type/Page/Parent 1 0 R>> endobj\n`).join(''),
        'latin1',
      );
    expect(pdfPages(pages(3))).toBe(3);
    expect(pdfPages(makePdf('One page', ['a line']))).toBe(1);
    // PDF 1.5 object streams hide the page objects: unknown, not zero.
    expect(pdfPages(pages(0))).toBeNull();
    expect(pdfPages(Buffer.from('PK\u0003\u0004 /Type /Page', 'latin1'))).toBeNull();
  });

  it('counts the pages of the documents a site file made before it already holds', () => {
    const tmp = makeTempDir('pdf-pages-schema');
    try {
      const file = path.join(tmp.dir, 'site.sqlite');
      const before = openServerDb(
        file,
        SCHEMA.filter((module) => module.name !== 'document-pages'),
      );
      before
        .prepare(
          'INSERT INTO documents (guid, title, filename, mime, bytes, created) ' +
            "VALUES ('G1', 'T', 't.pdf', 'application/pdf', ?, 0)",
        )
        .run(makePdf('Old', ['kept before the column']));
      before.close();
      const after = openServerDb(file);
      expect(after.prepare('SELECT pages FROM documents').get()).toEqual({ pages: 1 });
      after.close();
    } finally {
      tmp.remove();
    }
  });
});
