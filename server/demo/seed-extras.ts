import type { Db } from '../db/types.ts';
import type { DemoAccountName } from '../demo-accounts.ts';
import { DEMO_TEAM } from '../demo-accounts.ts';
import { renderInline } from '../guides/markup.ts';
import { insertRelease } from '../guides/releases.ts';
import { insertQuiz } from '../quizzes/repo.ts';
import { addTag } from '../tags/repo.ts';
import { COMPRESSOR_GUIDES } from './guides-compressor.ts';
import { FORKLIFT_GUIDES } from './guides-forklift.ts';
import { MACHINE_TOOL_GUIDES } from './guides-machine-tools.ts';
import { SAFETY_GUIDES, WELDING_GUIDES } from './guides-welding-safety.ts';
import { DEMO_COURSE, DEMO_QUIZZES } from './quizzes.ts';
import { DEMO_CATEGORIES, DEMO_COMMENTS, DEMO_FAVORITES } from './site-data.ts';

const DAY = 86_400;

interface Seeded {
  users: Record<DemoAccountName, number>;
  guides: Record<string, number>;
  steps: Record<string, number[]>;
  epoch: number;
}

/** Tags, quizzes and the course, comments, favourites and a little work-log history. */
export function seedDemoExtras(db: Db, seeded: Seeded) {
  const { users, guides, epoch } = seeded;
  for (const guide of [
    ...SAFETY_GUIDES,
    ...COMPRESSOR_GUIDES,
    ...MACHINE_TOOL_GUIDES,
    ...FORKLIFT_GUIDES,
    ...WELDING_GUIDES,
  ]) {
    for (const tag of guide.tags) addTag(db, { guideid: guides[guide.key]! }, tag);
  }
  seedReleases(db, users.author);
  for (const category of DEMO_CATEGORIES) {
    const { wikiid } = db.prepare('SELECT wikiid FROM categories WHERE title = ?').get(category.title) as {
      wikiid: number;
    };
    for (const tag of category.tags ?? []) addTag(db, { wikiid }, tag);
  }

  const quizzes: Record<string, { quizid: number; quizRevisionid: number }> = {};
  for (const quiz of DEMO_QUIZZES) {
    const ids = insertQuiz(db, { ...quiz, userid: users.author, created: epoch + 40 * DAY });
    quizzes[quiz.key] = ids;
    for (const key of quiz.guides) {
      db.prepare('INSERT INTO quiz_associations (guideid, quizid, created) VALUES (?, ?, ?)').run(
        guides[key]!,
        ids.quizid,
        epoch + 40 * DAY,
      );
    }
  }
  const courseid = Number(
    db.prepare('INSERT INTO courses (title, description) VALUES (?, ?)').run(DEMO_COURSE.title, DEMO_COURSE.description)
      .lastInsertRowid,
  );
  const courseStages = DEMO_COURSE.stages.map((stage, index) => {
    const stageid = Number(
      db
        .prepare('INSERT INTO course_stages (courseid, title, orderby, passing_score) VALUES (?, ?, ?, ?)')
        .run(courseid, stage.title, index + 1, stage.passing_score).lastInsertRowid,
    );
    for (const key of stage.quizzes) {
      db.prepare('INSERT INTO course_stage_quizzes (course_stageid, quizid) VALUES (?, ?)').run(
        stageid,
        quizzes[key]!.quizid,
      );
    }
    return stageid;
  });
  const team = db.prepare('SELECT teamid FROM teams WHERE name = ?').get(DEMO_TEAM.name) as
    { teamid: number } | undefined;
  const assign = db.prepare(
    'INSERT INTO course_assignments (courseid, userid, teamid, assigned_date, due_date) VALUES (?, ?, ?, ?, ?)',
  );
  if (team) assign.run(courseid, null, team.teamid, epoch + 41 * DAY, epoch + 71 * DAY);
  assign.run(courseid, users.tech1, null, epoch + 42 * DAY, null);

  const commentIds: number[] = [];
  DEMO_COMMENTS.forEach((comment, index) => {
    const date = epoch + (45 + index) * DAY;
    const stepid = comment.step === undefined ? undefined : seeded.steps[comment.guide]![comment.step - 1]!;
    const parentid = comment.replyTo === undefined ? null : commentIds[comment.replyTo]!;
    const id = db
      .prepare(
        `INSERT INTO comments (context, contextid, parentid, userid, text_raw, text_rendered, date, modified_date)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        stepid ? 'step' : 'guide',
        stepid ?? guides[comment.guide]!,
        parentid,
        users[comment.by],
        comment.text,
        renderInline(comment.text),
        date,
        date,
      ).lastInsertRowid;
    commentIds.push(Number(id));
  });

  for (const [name, keys] of Object.entries(DEMO_FAVORITES)) {
    for (const key of keys ?? []) {
      db.prepare('INSERT INTO favorites (userid, guideid, created) VALUES (?, ?, ?)').run(
        users[name as DemoAccountName],
        guides[key]!,
        epoch + 50 * DAY,
      );
    }
  }

  seedWorkHistory(db, seeded);
  return { quizzes, courseStages };
}

/** Each demo guide's first revision was released with a note, as a Dozuki author publishes a guide. */
function seedReleases(db: Db, author: number): void {
  const rows = db
    .prepare(
      `SELECT g.guideid, g.revisionid, r.modified_date AS at FROM guides g
       JOIN guide_revisions r ON r.revisionid = g.revisionid ORDER BY g.guideid`,
    )
    .all() as { guideid: number; revisionid: number; at: number }[];
  for (const row of rows) {
    insertRelease(db, {
      guideid: row.guideid,
      revisionid: row.revisionid,
      userid: author,
      title: 'First release',
      notes: 'Checked on the shop floor and released for use.',
      at: Math.floor(row.at),
      type: 'major',
    });
  }
}

/**
 * One finished inspection by tech1 (so history and completions are not empty) and one job tech2
 * suspended half way (so the suspended list and "assume" have something to show).
 */
function seedWorkHistory(db: Db, { users, guides, steps, epoch }: Seeded): void {
  const revisionOf = (guideid: number) =>
    (db.prepare('SELECT revisionid FROM guides WHERE guideid = ?').get(guideid) as { revisionid: number }).revisionid;
  const maxForm = (guideid: number) =>
    (
      db.prepare('SELECT MAX(form_revisionid) AS m FROM step_forms WHERE guideid = ?').get(guideid) as {
        m: number | null;
      }
    ).m;
  const insert = db.prepare(
    `INSERT INTO work_log (guideid, userid, workorderid, starttime, endtime, status, revisionid, active_stepid,
       paused_stepid, paused_at, pause_duration, max_form_revisionid, guide_revisionid, cancelled, duration)
     VALUES (@guideid, @userid, @workorderid, @starttime, @endtime, @status, @revisionid, @active_stepid,
       @paused_stepid, @paused_at, @pause_duration, @max_form_revisionid, @guide_revisionid, 0, @duration)`,
  );
  const inspection = guides['forklift-inspection']!;
  const start = epoch + 60 * DAY + 7 * 3600;
  insert.run({
    guideid: inspection,
    userid: users.tech1,
    workorderid: 'WO-24017',
    starttime: start,
    endtime: start + 780,
    status: 'complete',
    revisionid: 6,
    active_stepid: null,
    paused_stepid: null,
    paused_at: null,
    pause_duration: 120,
    max_form_revisionid: maxForm(inspection),
    guide_revisionid: revisionOf(inspection),
    duration: 660,
  });
  db.prepare('INSERT INTO completions (userid, guideid, created) VALUES (?, ?, ?)').run(
    users.tech1,
    inspection,
    start + 780,
  );

  const belt = guides['compressor-belt']!;
  const beltStart = epoch + 61 * DAY + 13 * 3600;
  const beltStep = steps['compressor-belt']![3]!;
  insert.run({
    guideid: belt,
    userid: users.tech2,
    workorderid: 'WO-24021',
    starttime: beltStart,
    endtime: null,
    status: 'suspended',
    revisionid: 3,
    active_stepid: null,
    paused_stepid: beltStep,
    paused_at: beltStart + 1500,
    pause_duration: 0,
    max_form_revisionid: maxForm(belt),
    guide_revisionid: revisionOf(belt),
    duration: 0,
  });
  // tech2 had filled in the old belt's part number (step 3) before suspending.
  const entryid = (db.prepare('SELECT MAX(entryid) AS id FROM work_log').get() as { id: number }).id;
  const field = db
    .prepare(
      `SELECT f.field_guid, f.field_revisionid, s.stepid, f.label
       FROM form_fields f JOIN step_forms s USING (form_revisionid)
       WHERE s.stepid = ? ORDER BY f.field_revisionid LIMIT 1`,
    )
    .get(steps['compressor-belt']![2]!) as {
    field_guid: string;
    field_revisionid: number;
    stepid: number;
    label: string;
  };
  db.prepare(
    'INSERT INTO work_log_data (entryid, field_guid, field_revisionid, stepid, label, value) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(entryid, field.field_guid, field.field_revisionid, field.stepid, field.label, 'AX51');
}
