import { inflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_GUIDES, seedDemoContent, type DemoContent } from '../../server/demo/seed.ts';
import { DEMO_QUIZZES } from '../../server/demo/quizzes.ts';
import { variantDimensions } from '../../server/media/image-sizes.ts';
import { makePdf } from '../../server/media/pdf.ts';
import { renderPicture } from '../../server/media/picture.ts';
import { crc32, createCanvas, encodePng, imageSize } from '../../server/media/png.ts';
import { questionsOf, scoreAnswers } from '../../server/quizzes/repo.ts';
import { openServerDb } from '../../server/db/open.ts';
import { FIELD_TYPES } from '../../server/db/schema-content.ts';
import type { Db } from '../../server/db/types.ts';
import { seedDemoPeople } from '../../server/users/seed.ts';

/** Walks the chunks of a PNG, checking every CRC, and returns the IHDR fields and the inflated pixels. */
function decodePng(png: Buffer): { width: number; height: number; raw: Buffer } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  for (;;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('ascii', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length), `CRC of ${type}`).toBe(crc32(png.subarray(at + 4, at + 8), data));
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([data[8], data[9]]).toEqual([8, 2]);
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
    if (type === 'IEND') break;
  }
  expect(at).toBe(png.length);
  return { width, height, raw: inflateSync(Buffer.concat(idat)) };
}

describe('png encoder', () => {
  it('writes a valid truecolour PNG whose pixels survive the round trip', () => {
    const canvas = createCanvas(7, 5, [10, 200, 30]);
    canvas.pixels.set([255, 0, 0], (2 * 7 + 3) * 3);
    const { width, height, raw } = decodePng(encodePng(canvas));
    expect([width, height]).toEqual([7, 5]);
    expect(raw.length).toBe((7 * 3 + 1) * 5);
    // Undo the "Up" filter row by row and compare with the canvas.
    const pixels = new Uint8Array(7 * 3 * 5);
    for (let y = 0; y < 5; y++) {
      expect(raw[y * 22]).toBe(2);
      for (let i = 0; i < 21; i++)
        pixels[y * 21 + i] = (raw[y * 22 + 1 + i]! + (y ? pixels[(y - 1) * 21 + i]! : 0)) & 0xff;
    }
    expect([...pixels]).toEqual([...canvas.pixels]);
    expect(imageSize(encodePng(canvas))).toEqual({ width: 7, height: 5 });
  });

  it('draws the same picture for the same spec, at any variant size', () => {
    const spec = { label: 'Drive belt', caption: 'STEP 1', hue: 210, pattern: 'gear' as const, seed: 42 };
    const a = renderPicture(spec, 300, 225);
    expect(renderPicture(spec, 300, 225).equals(a)).toBe(true);
    expect(renderPicture({ ...spec, seed: 43 }, 300, 225).equals(a)).toBe(false);
    for (const [w, h] of [
      [56, 42],
      [1024, 768],
      [1, 1],
    ] as const) {
      expect(decodePng(renderPicture(spec, w, h))).toMatchObject({ width: w, height: h });
    }
  });

  it('scales variants into their boxes without enlarging', () => {
    expect(variantDimensions('thumbnail', 1024, 768)).toEqual({ width: 96, height: 72 });
    expect(variantDimensions('medium', 1024, 768)).toEqual({ width: 592, height: 444 });
    expect(variantDimensions('huge', 1024, 768)).toEqual({ width: 1024, height: 768 });
    expect(variantDimensions('original', 640, 480)).toEqual({ width: 640, height: 480 });
    expect(variantDimensions('standard', 400, 800)).toEqual({ width: 113, height: 225 });
  });
});

describe('pdf', () => {
  it('writes a PDF whose cross-reference offsets point at its objects', () => {
    const pdf = makePdf('Checklist (draft)', ['Line one', 'Back\\slash']).toString('latin1');
    expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    const xref = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    expect(pdf.slice(xref, xref + 4)).toBe('xref');
    const offsets = [...pdf.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(6);
    offsets.forEach((offset, index) => expect(pdf.slice(offset).startsWith(`${index + 1} 0 obj`)).toBe(true));
  });
});

describe('demo workshop content', () => {
  let db: Db;
  let demo: DemoContent;
  beforeAll(() => {
    db = openServerDb(':memory:');
    seedDemoPeople(db);
    demo = seedDemoContent(db);
  });

  it('has about a dozen guides of 5 to 15 steps, in the documented id order', () => {
    expect(DEMO_GUIDES.length).toBeGreaterThanOrEqual(12);
    DEMO_GUIDES.forEach((guide, index) => {
      expect(demo.guides[guide.key]).toBe(index + 1);
      expect(guide.steps.length, guide.key).toBeGreaterThanOrEqual(5);
      expect(guide.steps.length, guide.key).toBeLessThanOrEqual(15);
    });
  });

  it('uses every field type, several bullet colours and levels, and the hazard flags', () => {
    const types = (db.prepare('SELECT DISTINCT field_type FROM form_fields').all() as { field_type: string }[]).map(
      (r) => r.field_type,
    );
    expect(types.sort()).toEqual([...FIELD_TYPES].sort());
    const bullets = db.prepare('SELECT COUNT(DISTINCT bullet) AS n, MAX(level) AS deepest FROM step_lines').get() as {
      n: number;
      deepest: number;
    };
    expect(bullets.n).toBeGreaterThanOrEqual(8);
    expect(bullets.deepest).toBeGreaterThanOrEqual(2);
    const flags = new Set(DEMO_GUIDES.flatMap((guide) => guide.flags));
    for (const flag of ['DANGER', 'DEATH', 'GUIDE_STARRED', 'GUIDE_PREREQ_ONLY']) expect(flags).toContain(flag);
    const media = db.prepare('SELECT media_type, COUNT(*) AS n FROM step_revisions GROUP BY media_type').all();
    expect(media).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ media_type: 'video' }),
        expect.objectContaining({ media_type: 'embed' }),
      ]),
    );
  });

  it('stores a real video and real documents', () => {
    const encodings = db
      .prepare('SELECT mime, size, bytes FROM video_encodings WHERE videoid = ?')
      .all(demo.videoid) as { mime: string; size: number; bytes: Buffer }[];
    expect(encodings.map((e) => e.mime).sort()).toEqual(['video/mp4', 'video/mp4', 'video/webm']);
    for (const e of encodings) {
      expect(e.bytes.length).toBe(e.size);
      if (e.mime === 'video/mp4') expect(e.bytes.toString('latin1', 4, 8)).toBe('ftyp');
      else expect([...e.bytes.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
    }
    const docs = db.prepare('SELECT bytes FROM documents').all() as { bytes: Buffer }[];
    expect(docs.length).toBeGreaterThanOrEqual(1);
    for (const doc of docs) expect(doc.bytes.toString('latin1', 0, 5)).toBe('%PDF-');
  });

  it('has three quizzes with correct answers on radiogroup, checkbox, boolean, dropdown and text questions', () => {
    expect(DEMO_QUIZZES).toHaveLength(3);
    for (const quiz of DEMO_QUIZZES) {
      const questions = questionsOf(quiz.survey);
      expect(new Set(questions.map((q) => q.type))).toEqual(
        new Set(['radiogroup', 'checkbox', 'boolean', 'dropdown', 'text']),
      );
      for (const q of questions) expect(q.correctAnswer, `${quiz.key}/${q.name}`).toBeDefined();
      const perfect = Object.fromEntries(questions.map((q) => [q.name, q.correctAnswer]));
      expect(scoreAnswers(quiz.survey, perfect).score).toBe(100);
      expect(scoreAnswers(quiz.survey, {}).score).toBe(0);
    }
    const stages = db.prepare('SELECT passing_score FROM course_stages ORDER BY orderby').all();
    expect(stages).toEqual([{ passing_score: 90 }, { passing_score: null }, { passing_score: 60 }]);
  });
});

describe('quiz scoring', () => {
  it('compares like SurveyJS: text ignores case and spaces, checkbox ignores order', () => {
    const survey = {
      pages: [
        {
          elements: [
            { type: 'text', name: 't', correctAnswer: 'ASME' },
            { type: 'checkbox', name: 'c', correctAnswer: ['a', 'b'] },
            { type: 'boolean', name: 'b', correctAnswer: false },
            { type: 'panel', name: 'p', elements: [{ type: 'dropdown', name: 'd', correctAnswer: 'x' }] },
            { type: 'comment', name: 'unscored' },
          ],
        },
      ],
    };
    expect(scoreAnswers(survey, { t: ' asme ', c: ['b', 'a'], b: false, d: 'x' })).toEqual({
      score: 100,
      correct: 4,
      total: 4,
    });
    expect(scoreAnswers(survey, { t: 'asme', c: ['a'], b: true, d: 'x' })).toEqual({ score: 50, correct: 2, total: 4 });
  });
});
