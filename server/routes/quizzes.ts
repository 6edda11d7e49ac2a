import type { Context } from 'hono';
import { z } from 'zod';
import { guideForRequest } from '../guides/access.ts';
import { getGuideRow } from '../guides/repo.ts';
import {
  associationsJson,
  attemptJson,
  courseAssignmentsJson,
  passingScore,
  quizSummaryJson,
  type AttemptRow,
} from '../quizzes/json.ts';
import { getQuizzesBody, listQuizzes } from '../quizzes/list.ts';
import { getQuiz, getQuizRevision, scoreAnswers } from '../quizzes/repo.ts';
import type { ServerContext } from '../context.ts';
import { requirePrivilege, requireUser } from '../http/auth.ts';
import type { AppEnv, RouteModule } from '../http/env.ts';
import { invalid, notFound } from '../http/errors.ts';
import { readBody } from '../http/json.ts';
import { pagedResult } from '../http/paging.ts';
import { routeId } from '../http/query.ts';
import { recordMutation } from '../testing/audit.ts';

const associationBody = z.object({
  guideid: z.number().int().positive(),
  quizids: z.array(z.number().int().positive()).min(1),
});

/** DESIGN.md §7: an attempt is `{quizid, quizRevisionid, answers, score, passed, started, finished}`. */
const attemptBody = z.object({
  quizid: z.number().int().positive(),
  quizRevisionid: z.number().int().positive(),
  answers: z.record(z.string(), z.unknown()),
  started: z.number().int().nonnegative(),
  finished: z.number().int().nonnegative(),
  course_stageid: z.number().int().positive().nullable().optional(),
  score: z.number().optional(),
  passed: z.boolean().optional(),
  /** Makes a replayed attempt land once: the same uuid answers the attempt already recorded. */
  client_uuid: z.string().min(8).max(100).optional(),
});

function quizOf(ctx: ServerContext, value: string | undefined) {
  const quizid = routeId(value);
  const quiz = quizid === null ? undefined : getQuiz(ctx.db, quizid);
  if (!quiz) throw notFound('No such quiz');
  return quiz;
}

function checkAssociation(ctx: ServerContext, c: Context<AppEnv>, body: z.infer<typeof associationBody>) {
  const guide = getGuideRow(ctx.db, body.guideid);
  if (!guide) throw invalid('guideid', 'invalid_value', 'No such guide');
  guideForRequest(ctx.db, c, String(guide.guideid));
  for (const quizid of body.quizids)
    if (!getQuiz(ctx.db, quizid)) throw invalid('quizids', 'invalid_value', `No quiz ${quizid}`);
  return guide.guideid;
}

/** Quizzes of reference 4.10 (shapes decided in server/README.md). */
export const quizzesRoutes: RouteModule = (api, ctx) => {
  api.post('/quizzes/getQuizzes', async (c) => {
    const query = await readBody(c, getQuizzesBody);
    const { rows, total } = listQuizzes(ctx.db, query);
    return c.json(
      pagedResult(
        rows.map((row) => quizSummaryJson(ctx.db, row)),
        total,
        query,
        query.search,
      ),
    );
  });

  api.get('/quizzes/associations/:guideid', (c) =>
    c.json(associationsJson(ctx.db, guideForRequest(ctx.db, c, c.req.param('guideid')).guideid)),
  );

  api.post('/quizzes/associations', async (c) => {
    requirePrivilege(c, 'Author');
    const body = await readBody(c, associationBody);
    const guideid = checkAssociation(ctx, c, body);
    ctx.db.transaction(() => {
      const insert = ctx.db.prepare(
        'INSERT OR IGNORE INTO quiz_associations (guideid, quizid, created) VALUES (?, ?, ?)',
      );
      for (const quizid of body.quizids)
        if (insert.run(guideid, quizid, ctx.clock.now()).changes)
          recordMutation(ctx, c, 'quiz_association', `${guideid}:${quizid}`);
    })();
    return c.json(associationsJson(ctx.db, guideid));
  });

  api.delete('/quizzes/associations', async (c) => {
    requirePrivilege(c, 'Author');
    const body = await readBody(c, associationBody);
    const guideid = checkAssociation(ctx, c, body);
    ctx.db.transaction(() => {
      const remove = ctx.db.prepare('DELETE FROM quiz_associations WHERE guideid = ? AND quizid = ?');
      for (const quizid of body.quizids)
        if (remove.run(guideid, quizid).changes) recordMutation(ctx, c, 'quiz_association', `${guideid}:${quizid}`);
    })();
    return c.json(associationsJson(ctx.db, guideid));
  });

  api.get('/quizzes/courseAssignments/:quizid', (c) =>
    c.json(courseAssignmentsJson(ctx.db, quizOf(ctx, c.req.param('quizid')).quizid)),
  );

  api.get('/quizzes/passingScore/:course_stageid/:quizid', (c) => {
    const quiz = quizOf(ctx, c.req.param('quizid'));
    const raw = c.req.param('course_stageid');
    const stageid = raw === '0' ? null : routeId(raw);
    if (stageid === null && raw !== '0') throw notFound('No such course stage');
    if (stageid !== null && !ctx.db.prepare('SELECT 1 FROM course_stages WHERE course_stageid = ?').get(stageid))
      throw notFound('No such course stage');
    return c.json({ course_stageid: stageid, quizid: quiz.quizid, ...passingScore(ctx.db, quiz, stageid) });
  });

  api.post('/quizzes/attempt', async (c) => {
    const user = requireUser(c);
    const body = await readBody(c, attemptBody);
    const quiz = getQuiz(ctx.db, body.quizid);
    if (!quiz) throw invalid('quizid', 'invalid_value', 'No such quiz');
    const revision = getQuizRevision(ctx.db, body.quizRevisionid);
    if (!revision || revision.quizid !== quiz.quizid)
      throw invalid('quizRevisionid', 'invalid_value', 'Not a revision of this quiz');
    if (body.finished < body.started) throw invalid('finished', 'invalid_value', 'finished must not be before started');
    const stageid = body.course_stageid ?? null;
    if (stageid !== null && !ctx.db.prepare('SELECT 1 FROM course_stages WHERE course_stageid = ?').get(stageid)) {
      throw invalid('course_stageid', 'invalid_value', 'No such course stage');
    }
    const byUuid = () =>
      body.client_uuid === undefined
        ? undefined
        : (ctx.db
            .prepare('SELECT * FROM quiz_attempts WHERE client_uuid = ? AND userid = ?')
            .get(body.client_uuid, user.userid) as AttemptRow | undefined);
    const replayed = byUuid();
    if (replayed) return c.json(attemptJson(replayed), 200);
    // The server scores the answers itself against the revision's correctAnswer values.
    const { score } = scoreAnswers(revision.survey, body.answers);
    const passed = score >= passingScore(ctx.db, quiz, stageid).passingScore;
    const attemptid = ctx.db.transaction(() => {
      const id = Number(
        ctx.db
          .prepare(
            `INSERT INTO quiz_attempts (userid, quizid, quizRevisionid, course_stageid, answers, score, passed, started,
               finished, client_uuid)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            user.userid,
            quiz.quizid,
            revision.quizRevisionid,
            stageid,
            JSON.stringify(body.answers),
            score,
            passed ? 1 : 0,
            body.started,
            body.finished,
            body.client_uuid ?? null,
          ).lastInsertRowid,
      );
      recordMutation(ctx, c, 'quiz_attempt', id);
      return id;
    })();
    return c.json(
      attemptJson(ctx.db.prepare('SELECT * FROM quiz_attempts WHERE attemptid = ?').get(attemptid) as AttemptRow),
      201,
    );
  });

  api.get('/quizzes/:quizRevisionid', (c) => {
    const id = routeId(c.req.param('quizRevisionid'));
    const revision = id === null ? undefined : getQuizRevision(ctx.db, id);
    if (!revision) throw notFound('No such quiz revision');
    return c.json({ ...revision.survey, quizid: revision.quizid, quizRevisionid: revision.quizRevisionid });
  });
};
