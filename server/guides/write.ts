import type { Db } from '../db/types.ts';
import type { Bullet } from '../db/schema-content.ts';
import { renderBlock, renderInline } from './markup.ts';

/** The reference's seven types, and iFixit's `how-to` (its OpenAPI `GuideType`). */
export type GuideType =
  'replacement' | 'installation' | 'repair' | 'disassembly' | 'teardown' | 'technique' | 'maintenance' | 'how-to';
export type Difficulty = 'Very easy' | 'Easy' | 'Moderate' | 'Difficult' | 'Very difficult';

/** Parts and tools (public-shapes.md): `{text, quantity, url, thumbnail, notes}`. */
export interface PartItem {
  text: string;
  quantity: number;
  url: string;
  thumbnail: string;
  notes: string;
  /** Not needed for every repair (iFixit's `isoptional`). */
  isoptional?: boolean;
}

export type StepMedia =
  | { type: 'image'; imageids: number[] }
  | { type: 'video'; videoid: number }
  | { type: 'embed'; html: string; url?: string; title?: string };

export interface LineInput {
  bullet: Bullet;
  level: number;
  text_raw: string;
}

export interface StepInput {
  title: string;
  media: StepMedia;
  lines: LineInput[];
}

/** Everything a guide revision holds besides its steps. */
export interface GuideFields {
  title: string;
  subject: string;
  category: string;
  type: GuideType;
  summary: string;
  difficulty: Difficulty;
  time_required: string;
  time_required_min: number;
  time_required_max: number;
  introduction_raw: string;
  conclusion_raw: string;
  public: boolean;
  imageid: number | null;
  flags: string[];
  parts: PartItem[];
  tools: PartItem[];
  prerequisites: number[];
  documents: number[];
}

export interface NewGuide extends GuideFields {
  guideid?: number;
  userid: number;
  created: number;
  modified: number;
  steps: StepInput[];
}

const statements = new WeakMap<Db, ReturnType<typeof prepare>>();

function prepare(db: Db) {
  return {
    guide: db.prepare(
      'INSERT INTO guides (guideid, revisionid, userid, created_date, published_date) VALUES (?, 0, ?, ?, ?)',
    ),
    setCurrent: db.prepare('UPDATE guides SET revisionid = ? WHERE guideid = ?'),
    revision: db.prepare(`
      INSERT INTO guide_revisions (guideid, modified_date, editorid, title, subject, category, type, summary,
        difficulty, time_required, time_required_min, time_required_max, introduction_raw, introduction_rendered,
        conclusion_raw, conclusion_rendered, public, imageid, flags, parts, tools, prerequisites, documents)
      VALUES (@guideid, @modified, @editorid, @title, @subject, @category, @type, @summary, @difficulty, @time_required,
        @time_required_min, @time_required_max, @introduction_raw, @introduction_rendered, @conclusion_raw,
        @conclusion_rendered, @public, @imageid, @flags, @parts, @tools, @prerequisites, @documents)`),
    step: db.prepare('INSERT INTO steps (guideid) VALUES (?)'),
    stepRevision: db.prepare('INSERT INTO step_revisions (stepid, title, media_type, media) VALUES (?, ?, ?, ?)'),
    line: db.prepare(
      'INSERT INTO step_lines (step_revisionid, idx, lineid, bullet, level, text_raw, text_rendered) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    orderStep: db.prepare('INSERT INTO guide_revision_steps (revisionid, orderby, step_revisionid) VALUES (?, ?, ?)'),
    copySteps: db.prepare(
      'INSERT INTO guide_revision_steps (revisionid, orderby, step_revisionid) ' +
        'SELECT ?, orderby, step_revisionid FROM guide_revision_steps WHERE revisionid = ?',
    ),
  };
}

function stmts(db: Db) {
  let found = statements.get(db);
  if (!found) statements.set(db, (found = prepare(db)));
  return found;
}

function insertRevision(
  db: Db,
  guideid: number,
  fields: GuideFields,
  modified: number,
  editorid: number | null,
): number {
  const result = stmts(db).revision.run({
    ...fields,
    guideid,
    modified,
    editorid,
    introduction_rendered: renderBlock(fields.introduction_raw),
    conclusion_rendered: renderBlock(fields.conclusion_raw),
    public: fields.public ? 1 : 0,
    flags: JSON.stringify(fields.flags),
    parts: JSON.stringify(fields.parts),
    tools: JSON.stringify(fields.tools),
    prerequisites: JSON.stringify(fields.prerequisites),
    documents: JSON.stringify(fields.documents),
  });
  return Number(result.lastInsertRowid);
}

/** Inserts a guide, its first revision and its steps. Call inside a transaction. */
export function insertGuide(db: Db, guide: NewGuide): { guideid: number; revisionid: number; stepids: number[] } {
  const s = stmts(db);
  const guideid = Number(
    s.guide.run(guide.guideid ?? null, guide.userid, guide.created, guide.public ? guide.created : null)
      .lastInsertRowid,
  );
  const revisionid = insertRevision(db, guideid, guide, guide.modified, guide.userid);
  const stepids = guide.steps.map((step, index) => {
    const stepid = Number(s.step.run(guideid).lastInsertRowid);
    const stepRevisionid = insertStepRevision(db, stepid, step);
    s.orderStep.run(revisionid, index + 1, stepRevisionid);
    return stepid;
  });
  s.setCurrent.run(revisionid, guideid);
  return { guideid, revisionid, stepids };
}

export function insertStepRevision(db: Db, stepid: number, step: StepInput): number {
  const s = stmts(db);
  const { type, ...media } = step.media;
  const id = Number(s.stepRevision.run(stepid, step.title, type, JSON.stringify(media)).lastInsertRowid);
  step.lines.forEach((line, idx) => {
    // Line ids only need to be unique and stable for a step revision; derive them instead of counting.
    s.line.run(id, idx, id * 100 + idx + 1, line.bullet, line.level, line.text_raw, renderInline(line.text_raw));
  });
  return id;
}

/**
 * A new current revision of a guide with `fields` and the same steps: every change to a guide, its
 * forms included, gives it a new `revisionid` and `modified_date`.
 */
export function reviseGuide(
  db: Db,
  guideid: number,
  fields: GuideFields,
  modified: number,
  editorid: number | null,
): number {
  const s = stmts(db);
  const previous = db.prepare('SELECT revisionid FROM guides WHERE guideid = ?').get(guideid) as
    { revisionid: number } | undefined;
  if (!previous) throw new Error(`No guide ${guideid}`);
  const revisionid = insertRevision(db, guideid, fields, modified, editorid);
  s.copySteps.run(revisionid, previous.revisionid);
  s.setCurrent.run(revisionid, guideid);
  return revisionid;
}
