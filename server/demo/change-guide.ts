import type { Db } from '../db/types.ts';
import { nextModified } from '../guides/access.ts';
import { insertRelease } from '../guides/releases.ts';
import { fieldsOf, getGuideRow } from '../guides/repo.ts';
import { insertStepRevision, reviseGuide, type LineInput, type StepMedia } from '../guides/write.ts';

/** What the demo's change does to a guide: a line added to one step, a last step added, a release note. */
export const DEMO_CHANGE = {
  reworded: 'Check it twice before you go on: a second look costs less than a second repair.',
  step: {
    title: 'Check your work',
    line: 'Before you close up, check that every fastener you touched is tight and every guard is back in place.',
  },
  release: 'What changed',
  notes: (number: number) => `Step ${number} now asks you to check it twice, and a last step checks your work.`,
};

/**
 * A new revision of a guide, as its author would publish it (issue 30, the demo's changed guide): its own
 * step `number` (the last one if it has fewer) gets a line reworded, a step "Check your work" is added at
 * the end, and the revision carries a release note. Answers the new revisionid. Call inside a transaction.
 */
export function publishDemoChange(db: Db, guideid: number, number: number, now: number, editorid: number): number {
  const row = getGuideRow(db, guideid);
  if (!row) throw new Error(`No guide ${guideid}`);
  const revisionid = reviseGuide(db, guideid, fieldsOf(row), nextModified(row.modified_date, now), editorid);
  const order = db
    .prepare(
      `SELECT o.orderby, o.step_revisionid AS id, s.stepid FROM guide_revision_steps o
       JOIN step_revisions s ON s.step_revisionid = o.step_revisionid WHERE o.revisionid = ? ORDER BY o.orderby`,
    )
    .all(revisionid) as { orderby: number; id: number; stepid: number }[];
  const at = Math.min(number, order.length);
  const target = order[at - 1];
  if (target) {
    const old = db
      .prepare('SELECT title, media_type, media FROM step_revisions WHERE step_revisionid = ?')
      .get(target.id) as { title: string; media_type: string; media: string };
    const lines = db
      .prepare('SELECT bullet, level, text_raw FROM step_lines WHERE step_revisionid = ? ORDER BY idx')
      .all(target.id) as LineInput[];
    const reworded = lines.length > 0 ? [{ ...lines[0]!, text_raw: DEMO_CHANGE.reworded }, ...lines.slice(1)] : [];
    const media = { type: old.media_type, ...(JSON.parse(old.media) as object) } as StepMedia;
    const fresh = insertStepRevision(db, target.stepid, { title: old.title, media, lines: reworded });
    db.prepare('UPDATE guide_revision_steps SET step_revisionid = ? WHERE revisionid = ? AND orderby = ?').run(
      fresh,
      revisionid,
      target.orderby,
    );
  }
  const stepid = Number(db.prepare('INSERT INTO steps (guideid) VALUES (?)').run(guideid).lastInsertRowid);
  const added = insertStepRevision(db, stepid, {
    title: DEMO_CHANGE.step.title,
    media: { type: 'image', imageids: [] },
    lines: [{ bullet: 'black', level: 0, text_raw: DEMO_CHANGE.step.line }],
  });
  const last = order.at(-1)?.orderby ?? 0;
  db.prepare('INSERT INTO guide_revision_steps (revisionid, orderby, step_revisionid) VALUES (?, ?, ?)').run(
    revisionid,
    last + 1,
    added,
  );
  insertRelease(db, {
    guideid,
    revisionid,
    userid: editorid,
    title: DEMO_CHANGE.release,
    notes: DEMO_CHANGE.notes(at),
    at: now,
  });
  return revisionid;
}
