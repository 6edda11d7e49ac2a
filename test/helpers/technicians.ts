import { expect } from 'vitest';
import type { AppApi, GuideDetail, QuizAttempt, WorkSession } from '../../electron/contract.ts';
import type { RunningSite } from '../../server/site.ts';
import { api } from '../server/helpers.ts';
import { unwrap } from './library.ts';
import { sampleValue } from './worklog.ts';

/** A 1×1 PNG: what a technician photographs for an Image field. */
export const PHOTO_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The demo guide whose forms have an Image field and which has a quiz (asked of the site's database). */
export function photoAndQuizGuide(site: RunningSite): number {
  const row = site.db
    .prepare(
      `SELECT f.guideid FROM step_forms f JOIN form_fields x ON x.form_revisionid = f.form_revisionid
       WHERE x.field_type = 'Image' AND f.guideid IN (SELECT guideid FROM quiz_associations)
       ORDER BY f.guideid LIMIT 1`,
    )
    .get() as { guideid: number } | undefined;
  if (!row) throw new Error('the demo site has no guide with a photo field and a quiz');
  return row.guideid;
}

/** What one technician did: a whole session (step data, a photo, a pause, the end) and a quiz attempt. */
export interface DoneWork {
  session: WorkSession;
  attempt: QuizAttempt;
  /** Transitions queued (pause, resume, finish). */
  transitions: number;
}

/**
 * A technician's whole piece of work through the App API, as
 * the session view and the quiz view do it (needs no network).
 */
export async function doWork(app: AppApi, guide: GuideDetail, workorderid: string, variant = 0): Promise<DoneWork> {
  let session = unwrap(await app.startSession({ guideid: guide.guideid, workorderid }));
  const fields = guide.steps.flatMap((s) =>
    s.form ? s.form.fields.map((field) => ({ field, stepid: s.stepid })) : [],
  );
  for (const { field, stepid } of fields.filter(({ field }) => sampleValue(field) !== null).slice(0, 2)) {
    session = unwrap(
      await app.saveStepData({
        sessionId: session.id,
        stepid,
        values: [{ fieldGuid: field.fieldGuid, value: sampleValue(field, variant) }],
      }),
    );
  }
  const photo = fields.find(({ field }) => field.type === 'Image')!;
  unwrap(
    await app.attachFile({
      sessionId: session.id,
      stepid: photo.stepid,
      fieldGuid: photo.field.fieldGuid,
      name: 'belt.png',
      mime: 'image/png',
      dataBase64: PHOTO_BASE64,
    }),
  );
  unwrap(await app.transitionSession({ sessionId: session.id, transition: 'pause' }));
  unwrap(await app.transitionSession({ sessionId: session.id, transition: 'resume' }));
  session = unwrap(await app.transitionSession({ sessionId: session.id, transition: 'finish' }));
  const quiz = unwrap(await app.getQuiz(guide.quizzes[0]!.quizRevisionid));
  const attempt = unwrap(
    await app.submitQuizAttempt({ quizRevisionid: quiz.quizRevisionid, answers: {}, startedAt: session.startedAt }),
  );
  return { session, attempt, transitions: 3 };
}

export interface AuditRow {
  method: string;
  path: string;
  entity: string;
  entity_id: string;
  userid: number | null;
}

export async function auditOf(site: RunningSite, entity: string): Promise<AuditRow[]> {
  return (await (await fetch(`${site.url}/__test/audit?entity=${entity}`)).json()) as AuditRow[];
}

/**
 * The site holds this work once, as `userid`'s: one entry of the work order, started, changed and ended by
 * them only (the audit log), its values and photo there, the quiz attempt recorded once as theirs.
 */
export async function expectOnSiteAs(
  site: RunningSite,
  adminToken: string,
  userid: number,
  done: Pick<DoneWork, 'session' | 'transitions'>,
  session: WorkSession,
  attempt: QuizAttempt | null,
): Promise<void> {
  const what = `${done.session.workorderid} as user ${userid}`;
  const listed = (
    await api(site, 'GET', '/work_log', {
      token: adminToken,
      query: { workorderid: done.session.workorderid, guideid: done.session.guideid },
    })
  ).body as {
    results: { entryid: number; userid: number; status: string; work_data: { value: string }[] }[];
  };
  expect(
    listed.results.map((e) => [e.entryid, e.userid]),
    `${what}: one entry`,
  ).toEqual([[session.entryid, userid]]);
  expect(listed.results[0]!.status, what).toBe(session.status);
  const applied = (await auditOf(site, 'work_log')).filter((a) => a.entity_id === String(session.entryid));
  expect(new Set(applied.map((a) => a.userid)), `${what}: every change by them`).toEqual(new Set([userid]));
  expect(
    applied.filter((a) => a.method === 'POST' && /\/work_log$/.test(a.path)),
    `${what}: created once`,
  ).toHaveLength(1);
  expect(
    applied.filter((a) => /\/(pause|resume|finish|cancel)$/.test(a.path)),
    `${what}: transitions once each`,
  ).toHaveLength(done.transitions);
  const photo = session.values.find((v) => v.attachment);
  expect(photo?.attachment?.uploaded, `${what}: the photo went`).toBe(true);
  const entry = (await api(site, 'GET', `/work_log/${session.entryid}`, { token: adminToken })).body as {
    work_data: { field_guid: string; value: string }[];
  };
  const itemid = entry.work_data.find((d) => d.field_guid === photo?.fieldGuid)?.value;
  expect(itemid, `${what}: the photo's value on the site`).toMatch(/^\d+$/);
  const uploads = (await auditOf(site, 'user_media')).filter((a) => a.entity_id === itemid);
  expect(
    uploads.map((a) => a.userid),
    `${what}: the photo uploaded once, by them`,
  ).toEqual([userid]);
  if (!attempt) return;
  expect(attempt.sync, `${what}: quiz attempt`).toBe('sent');
  const attempts = (await auditOf(site, 'quiz_attempt')).filter((a) => a.entity_id === String(attempt.siteAttemptid));
  expect(
    attempts.map((a) => a.userid),
    `${what}: the attempt recorded once, as theirs`,
  ).toEqual([userid]);
}
