import type { Db } from '../db/types.ts';
import { DEMO_ACCOUNTS } from '../demo-accounts.ts';
import { getUserByEmail } from '../users/repo.ts';
import { seedDemoPeople } from '../users/seed.ts';
import type { FlagId } from '../guides/flags.ts';
import { insertForm } from '../step-forms/repo.ts';
import { CAUTIONS, DETAIL_BULLETS, DETAILS, EQUIPMENT, MODELS, OBJECTS, PARTS, STEP_ACTIONS, VERBS } from './words.ts';
import { renderBlock } from '../guides/markup.ts';
import { insertPicture } from '../media/repo.ts';
import { PATTERNS } from '../media/picture.ts';
import { createRng, guidFrom, mixSeed, uuidFrom, type Rng } from '../prng.ts';
import { statement } from '../db/statements.ts';
import { insertGuide, type Difficulty, type LineInput, type StepInput } from '../guides/write.ts';

export interface GenerateOptions {
  guides: number;
  /** Steps per guide. */
  steps: number;
  /** Images per step (and one per guide and category besides). */
  images: number;
  seed: number;
}

export interface GeneratedSite {
  guides: number;
  categories: number;
  images: number;
}

const BATCH = 250;
const DAY = 86_400;
const BASE_DATE = 1_700_000_000;
const DIFFICULTIES: readonly Difficulty[] = ['Very easy', 'Easy', 'Moderate', 'Difficult', 'Very difficult'];
// Generated originals are 800x600: every variant up to `large` exists, none is drawn bigger than that.
const SIZE = { width: 800, height: 600 };

/**
 * Fills an empty site with `guides` generated guides, deterministic for a seed. Media are stored as
 * picture specs and drawn when fetched, so the site costs rows, not bytes; guides are inserted in
 * batches of one transaction each and nothing is kept in memory across batches.
 * Seeds the demo accounts first when the site has no users, so the same people can sign in.
 */
export function generateSite(db: Db, options: GenerateOptions): GeneratedSite {
  const { guides, steps, images, seed } = options;
  for (const [name, value] of Object.entries(options)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number`);
  }
  const hasUsers = db.prepare('SELECT 1 FROM users LIMIT 1').get() !== undefined;
  if (!hasUsers) db.transaction(() => seedDemoPeople(db))();
  const author =
    getUserByEmail(db, DEMO_ACCOUNTS.author.email) ??
    (db.prepare('SELECT * FROM users ORDER BY userid LIMIT 1').get() as { userid: number });

  let imageCount = 0;
  // Pictures come from a bounded set (label x hue x pattern x 2 layouts) that the server's picture
  // cache holds, so serving thousands of images costs little; each file is unique by its GUID tag.
  const picture = (index: number, label: string, hue: number): number => {
    imageCount += 1;
    const imageSeed = mixSeed(seed, 0x1a6e, index);
    const guid = guidFrom(imageSeed);
    const spec = { label, hue, pattern: PATTERNS[imageSeed % PATTERNS.length]!, seed: imageSeed % 2, tag: guid };
    return insertPicture(db, { guid, ...SIZE, spec, ownerid: author.userid, created: BASE_DATE });
  };

  const categories = db.transaction(() =>
    generateCategories(db, Math.min(48, Math.max(3, Math.ceil(guides / 40))), (i, title, hue) =>
      picture(-1 - i, title, hue),
    ),
  )();

  for (let first = 1; first <= guides; first += BATCH) {
    db.transaction(() => {
      for (let n = first; n < first + BATCH && n <= guides; n++) {
        const rng = createRng(mixSeed(seed, n));
        const category = rng.pick(categories);
        const { verb, type } = rng.pick(VERBS);
        const part = rng.pick(PARTS);
        const created = BASE_DATE + n * 3600;
        const flags: FlagId[] = [];
        if (rng.chance(0.12)) flags.push('DANGER');
        if (rng.chance(0.03)) flags.push('DEATH');
        if (rng.chance(0.05)) flags.push('GUIDE_STARRED');
        const minutes = rng.int(1, 12) * 5;
        let imageIndex = n * 1000;
        const result = insertGuide(db, {
          userid: author.userid,
          created,
          modified: created + rng.int(0, 90) * DAY + rng.int(0, 999) / 1000,
          title: `${verb} the ${part} on the ${category.title}`,
          subject: part.replace(/^./, (c) => c.toUpperCase()),
          category: category.title,
          type,
          summary: `How to ${verb.toLowerCase()} the ${part} of a ${category.title}, step by step.`,
          difficulty: rng.pick(DIFFICULTIES),
          time_required: `${minutes} - ${minutes * 2} minutes`,
          time_required_min: minutes * 60,
          time_required_max: minutes * 120,
          introduction_raw:
            `This guide shows how to ${verb.toLowerCase()} the ` +
            `**${part}** on the ${category.title}.\n\n${rng.pick(CAUTIONS)}`,
          conclusion_raw: 'Reassemble in reverse order and test the machine before returning it to service.',
          public: !rng.chance(0.05),
          imageid: picture(imageIndex++, part, category.hue),
          flags,
          parts: [{ text: `${part} (${category.title})`, quantity: 1, url: '', thumbnail: '', notes: '' }],
          tools: [{ text: 'Socket set', quantity: 1, url: '', thumbnail: '', notes: '' }],
          prerequisites: n > 1 && rng.chance(0.1) ? [rng.int(1, n - 1)] : [],
          documents: [],
          steps: Array.from({ length: steps }, (): StepInput => {
            const action = rng.pick(STEP_ACTIONS);
            const title = `${action} ${rng.pick(OBJECTS)}`;
            return {
              title,
              media: {
                type: 'image',
                imageids: Array.from({ length: images }, () => picture(imageIndex++, action, category.hue)),
              },
              lines: stepLines(rng, title),
            };
          }),
        });
        if (n % 4 === 0 && result.stepids.length > 0) addForms(db, n, seed, result, author.userid, created);
      }
    })();
  }
  return { guides, categories: categories.length, images: imageCount };
}

function stepLines(rng: Rng, title: string): LineInput[] {
  const lines: LineInput[] = [{ bullet: 'black', level: 0, text_raw: `${title}.` }];
  if (rng.chance(0.15)) lines.push({ bullet: 'red', level: 0, text_raw: rng.pick(CAUTIONS) });
  const details = rng.int(0, 3);
  for (let i = 0; i < details; i++) {
    lines.push({
      bullet: rng.pick(DETAIL_BULLETS),
      level: rng.int(0, Math.min(2, i + 1)),
      text_raw: rng.pick(DETAILS),
    });
  }
  return lines;
}

/** Every fourth guide has a form on its first step; every eighth one on its second step too. */
function addForms(
  db: Db,
  n: number,
  seed: number,
  guide: { guideid: number; stepids: number[] },
  userid: number,
  created: number,
): void {
  const guid = (k: number) => uuidFrom(mixSeed(seed, 0xf0, n, k));
  insertForm(db, {
    stepid: guide.stepids[0]!,
    guideid: guide.guideid,
    userid,
    created,
    fields: [
      { field_guid: guid(1), field_type: 'Text Input', label: 'Serial number', placeholder: 'SN-' },
      { field_guid: guid(2), field_type: 'Checkbox', label: 'Machine locked out', placeholder: '0' },
    ],
  });
  const second = guide.stepids[1];
  if (n % 8 !== 0 || second === undefined) return;
  insertForm(db, {
    stepid: second,
    guideid: guide.guideid,
    userid,
    created,
    fields: [
      { field_guid: guid(3), field_type: 'Numeric Input', label: 'Measured value', placeholder: '0' },
      { field_guid: guid(4), field_type: 'Select', label: 'Condition', options: ['Good', 'Worn', 'Damaged'] },
    ],
  });
}

/** Equipment categories: up to eight roots, the rest models under them. */
function generateCategories(db: Db, count: number, picture: (i: number, title: string, hue: number) => number) {
  const roots = Math.min(8, count);
  const made: { title: string; hue: number; wikiid: number }[] = [];
  for (let i = 0; i < count; i++) {
    const parent = i < roots ? undefined : made[i % roots]!;
    const base = parent
      ? `${parent.title} ${MODELS[Math.floor(i / roots) % MODELS.length]}`
      : EQUIPMENT[i % EQUIPMENT.length]!;
    const title = made.some((c) => c.title === base) ? `${base} ${i}` : base;
    const hue = parent ? parent.hue : (i * 47) % 360;
    const contents = `Guides for the ${title}.`;
    const wikiid = Number(
      statement(
        db,
        `INSERT INTO categories (title, display_title, parentid, description, contents_raw, contents_rendered,
           imageid, revisionid, modified_date)
         VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)`,
      ).run(
        title,
        title,
        parent?.wikiid ?? null,
        `All about the ${title}.`,
        contents,
        renderBlock(contents),
        picture(i, title, hue),
        BASE_DATE,
      ).lastInsertRowid,
    );
    made.push({ title, hue, wikiid });
  }
  return made;
}
