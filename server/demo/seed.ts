import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../db/types.ts';
import { DEMO_ACCOUNTS, type DemoAccountName } from '../demo-accounts.ts';
import { getUserByEmail } from '../users/repo.ts';
import { COMPRESSOR_GUIDES } from './guides-compressor.ts';
import { FORKLIFT_GUIDES } from './guides-forklift.ts';
import { MACHINE_TOOL_GUIDES } from './guides-machine-tools.ts';
import { SAFETY_GUIDES, WELDING_GUIDES } from './guides-welding-safety.ts';
import { seedDemoExtras } from './seed-extras.ts';
import { seedDemoTranslations } from './translations.ts';
import { DEMO_CATEGORIES, DEMO_DOCUMENTS } from './site-data.ts';
import type { DemoGuide, DemoItem, DemoStep } from './types.ts';
import { insertForm } from '../step-forms/repo.ts';
import { renderBlock } from '../guides/markup.ts';
import { insertDocument, insertPicture, insertVideo } from '../media/repo.ts';
import { makePdf } from '../media/pdf.ts';
import { PATTERNS } from '../media/picture.ts';
import { guidFrom, mixSeed, uuidFrom } from '../prng.ts';
import { insertGuide, type PartItem, type StepMedia } from '../guides/write.ts';

/** Every demo guide in the order it is stored: guideid 1 is the first of this list. */
export const DEMO_GUIDES: readonly DemoGuide[] = [
  ...SAFETY_GUIDES,
  ...COMPRESSOR_GUIDES,
  ...MACHINE_TOOL_GUIDES,
  ...FORKLIFT_GUIDES,
  ...WELDING_GUIDES,
];

/** 2024-06-01T12:00:00Z: demo content is dated from here, the same on every start. */
export const DEMO_EPOCH = 1_717_243_200;
const DAY = 86_400;
const SEED = 20240601;

export interface DemoContent {
  users: Record<DemoAccountName, number>;
  /** guideid by demo key (`compressor-belt`, `forklift-inspection`, ...). */
  guides: Record<string, number>;
  /** stepids of each guide, in step order. */
  steps: Record<string, number[]>;
  quizzes: Record<string, { quizid: number; quizRevisionid: number }>;
  courseStages: number[];
  videoid: number;
  documents: Record<string, number>;
}

const DEFAULT_ASSETS = fileURLToPath(new URL('../../resources/demo/', import.meta.url));

/** The demo workshop's content. Needs the demo accounts (S1's `seedDemoPeople`) to be seeded first. */
export function seedDemoContent(db: Db, options: { assetDir?: string } = {}): DemoContent {
  const assets = options.assetDir ?? DEFAULT_ASSETS;
  return db.transaction(() => seed(db, assets))();
}

function demoUsers(db: Db): Record<DemoAccountName, number> {
  const ids = {} as Record<DemoAccountName, number>;
  for (const name of Object.keys(DEMO_ACCOUNTS) as DemoAccountName[]) {
    const user = getUserByEmail(db, DEMO_ACCOUNTS[name].email);
    if (!user) throw new Error(`Seed the demo accounts before the demo content (missing ${DEMO_ACCOUNTS[name].email})`);
    ids[name] = user.userid;
  }
  return ids;
}

function seed(db: Db, assets: string): DemoContent {
  const users = demoUsers(db);
  let pictures = 0;
  const picture = (
    label: string,
    hue: number,
    caption?: string,
    size: readonly [number, number] = [1024, 768],
  ): number => {
    pictures += 1;
    const seed = mixSeed(SEED, pictures);
    const pattern = PATTERNS[seed % PATTERNS.length]!;
    const spec = { label, hue: (hue + (seed % 21) - 10 + 360) % 360, pattern, seed, ...(caption ? { caption } : {}) };
    return insertPicture(db, {
      guid: guidFrom(seed),
      width: size[0],
      height: size[1],
      spec,
      ownerid: users.author,
      created: DEMO_EPOCH,
    });
  };

  DEMO_CATEGORIES.forEach((category, index) => {
    const parent = category.parent
      ? (db.prepare('SELECT wikiid FROM categories WHERE title = ?').get(category.parent) as { wikiid: number }).wikiid
      : null;
    db.prepare(
      `INSERT INTO categories (title, display_title, parentid, description, contents_raw, contents_rendered, imageid,
         revisionid, modified_date)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      category.title,
      category.title,
      parent,
      category.description,
      category.contents,
      renderBlock(category.contents),
      picture(category.title, category.hue),
      index + 1,
      DEMO_EPOCH,
    );
  });

  const documents: Record<string, number> = {};
  for (const doc of DEMO_DOCUMENTS) {
    const bytes = makePdf(doc.title, doc.lines);
    documents[doc.key] = insertDocument(db, {
      guid: guidFrom(mixSeed(SEED, 0xd0c, Object.keys(documents).length)),
      title: doc.title,
      filename: doc.filename,
      mime: 'application/pdf',
      bytes,
      ownerid: users.author,
      created: DEMO_EPOCH,
    });
  }

  const videoid = seedVideo(db, assets, picture('Tank drain valve', 210, 'VIDEO', [640, 480]), users.author);

  const guides: Record<string, number> = {};
  const steps: Record<string, number[]> = {};
  let fields = 0;
  DEMO_GUIDES.forEach((guide, index) => {
    const created = DEMO_EPOCH + index * 2 * DAY;
    const userid = users[guide.author ?? 'author'];
    const item =
      (kind: 'Item' | 'Tool') =>
      ([text, quantity, notes, optional]: DemoItem): PartItem => ({
        text,
        quantity,
        notes: notes ?? '',
        url: `/${kind}/${encodeURIComponent(text.replace(/\s+/g, '_'))}`,
        thumbnail: '',
        ...(optional ? { isoptional: true } : {}),
      });
    const result = insertGuide(db, {
      guideid: index + 1,
      userid,
      created,
      modified: created + 30 * DAY + 0.25 * (index % 4),
      title: guide.title,
      subject: guide.subject,
      category: guide.category,
      type: guide.type,
      summary: guide.summary,
      difficulty: guide.difficulty,
      time_required: `${guide.minutes[0]} - ${guide.minutes[1]} minutes`,
      time_required_min: guide.minutes[0] * 60,
      time_required_max: guide.minutes[1] * 60,
      introduction_raw: guide.intro,
      conclusion_raw: guide.conclusion,
      public: guide.public ?? true,
      imageid: picture(guide.subject, guide.hue),
      flags: guide.flags,
      parts: guide.parts.map(item('Item')),
      tools: guide.tools.map(item('Tool')),
      prerequisites: (guide.prereqs ?? []).map((key) => {
        const id = guides[key];
        if (id === undefined) throw new Error(`Demo guide ${guide.key} needs ${key} listed before it`);
        return id;
      }),
      documents: (guide.documents ?? []).map((key) => documents[key]!),
      steps: guide.steps.map((step, n) => ({
        title: step.title,
        media: stepMedia(step, (label) => picture(label, guide.hue, `STEP ${n + 1}`), videoid),
        lines: step.lines.map(([bullet, text_raw, level]) => ({ bullet, text_raw, level: level ?? 0 })),
      })),
    });
    guides[guide.key] = result.guideid;
    steps[guide.key] = result.stepids;
    guide.steps.forEach((step, n) => {
      if (!step.form) return;
      insertForm(db, {
        stepid: result.stepids[n]!,
        guideid: result.guideid,
        userid,
        created,
        fields: step.form.map((field) => ({
          field_guid: uuidFrom(mixSeed(SEED, 0xf1e1d, ++fields)),
          field_type: field.type,
          label: field.label,
          ...(field.placeholder !== undefined ? { placeholder: field.placeholder } : {}),
          ...(field.textarea !== undefined ? { textarea: field.textarea } : {}),
          ...(field.options ? { options: field.options } : {}),
        })),
      });
    });
  });

  const extras = seedDemoExtras(db, { users, guides, steps, epoch: DEMO_EPOCH });
  seedDemoTranslations(db, { guides, steps });
  return { users, guides, steps, videoid, documents, ...extras };
}

function stepMedia(step: DemoStep, picture: (label: string) => number, videoid: number): StepMedia {
  if (step.video) return { type: 'video', videoid };
  if (step.embed) return { type: 'embed', ...step.embed };
  return { type: 'image', imageids: (step.pictures ?? []).map(picture) };
}

/** The demo video: three small encodings made once with ffmpeg (resources/demo/video/README.md). */
function seedVideo(db: Db, assets: string, posterid: number, ownerid: number): number {
  const file = (name: string) => readFileSync(join(assets, 'video', name));
  return insertVideo(db, {
    guid: guidFrom(mixSeed(SEED, 0x71de0)),
    filename: 'tank-drain.mp4',
    duration_ms: 4000,
    width: 640,
    height: 480,
    frame_rate: 15,
    imageid: posterid,
    ownerid,
    created: DEMO_EPOCH,
    encodings: [
      {
        name: '320x240.mp4',
        codecs: 'avc1.42C00D',
        format: 'mp4',
        width: 320,
        height: 240,
        mime: 'video/mp4',
        max_video_bitrate: 100,
        bytes: file('demo-320.mp4'),
      },
      {
        name: '320x240.webm',
        codecs: 'vp8',
        format: 'webm',
        width: 320,
        height: 240,
        mime: 'video/webm',
        max_video_bitrate: 100,
        bytes: file('demo-320.webm'),
      },
      {
        name: '640x480.mp4',
        codecs: 'avc1.42C01E',
        format: 'mp4',
        width: 640,
        height: 480,
        mime: 'video/mp4',
        max_video_bitrate: 200,
        bytes: file('demo-640.mp4'),
      },
    ],
  });
}
