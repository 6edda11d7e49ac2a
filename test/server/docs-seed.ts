import { insertGuide } from '../../server/guides/write.ts';
import type { Db } from '../../server/db/types.ts';
import { getUserByEmail } from '../../server/users/repo.ts';
import { insertRootCategory, insertWorkspace } from '../../server/workspaces/repo.ts';

export const SEED_TIME = 1_720_000_000;

/** A child category under a parent, the way the content side stores categories. */
export function insertChildCategory(db: Db, title: string, parentid: number, displayTitle = title): number {
  return Number(
    db
      .prepare(
        `INSERT INTO categories (title, display_title, parentid, revisionid, modified_date)
         VALUES (?, ?, ?, (SELECT COALESCE(MAX(revisionid), 0) + 1 FROM categories), ?)`,
      )
      .run(title, displayTitle, parentid, SEED_TIME).lastInsertRowid,
  );
}

/** A one-step guide in a category, by the demo account with that e-mail. */
export function insertSimpleGuide(db: Db, title: string, category: string, authorEmail: string): number {
  const userid = getUserByEmail(db, authorEmail)!.userid;
  return insertGuide(db, {
    userid,
    created: SEED_TIME,
    modified: SEED_TIME,
    title,
    subject: title,
    category,
    type: 'repair',
    summary: `${title}.`,
    difficulty: 'Easy',
    time_required: '10 minutes',
    time_required_min: 600,
    time_required_max: 600,
    introduction_raw: '',
    conclusion_raw: '',
    public: true,
    imageid: null,
    flags: [],
    parts: [],
    tools: [],
    prerequisites: [],
    documents: [],
    steps: [
      {
        title: 'Do it',
        media: { type: 'embed', html: '' },
        lines: [{ bullet: 'black', level: 0, text_raw: 'Do the thing.' }],
      },
    ],
  }).guideid;
}

export interface DocsFixture {
  /** A public workspace (root category) with a child category holding a guide by tech1. */
  workspaceid: number;
  childCategoryid: number;
  workspaceGuideid: number;
  /** A root category that is no workspace, with a guide by the author. */
  plainCategoryid: number;
  plainGuideid: number;
}

export function seedDocs(db: Db): DocsFixture {
  const admin = getUserByEmail(db, 'admin@demo.test')!.userid;
  const workspaceid = insertRootCategory(db, 'Line Maintenance', SEED_TIME);
  insertWorkspace(db, workspaceid, 'public', admin, SEED_TIME);
  const childCategoryid = insertChildCategory(db, 'Conveyors', workspaceid);
  const workspaceGuideid = insertSimpleGuide(db, 'Replace a conveyor belt', 'Conveyors', 'tech1@demo.test');
  const plainCategoryid = insertRootCategory(db, 'Compressors', SEED_TIME);
  const plainGuideid = insertSimpleGuide(db, 'Drain a compressor tank', 'Compressors', 'author@demo.test');
  return { workspaceid, childCategoryid, workspaceGuideid, plainCategoryid, plainGuideid };
}
