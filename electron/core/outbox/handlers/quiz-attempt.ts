import type { z } from 'zod';
import { attemptWire } from '../../api/wire/quiz.ts';
import type { quizAttemptPayload } from '../payloads.ts';
import type { Handler } from '../replay-context.ts';

/**
 * `POST /quizzes/attempt` with the attempt's own id as `client_uuid`: the site records an attempt once
 * per id, so a repeat after a lost answer returns the attempt already recorded (nothing to reconcile).
 */
export const replayQuizAttempt: Handler<z.infer<typeof quizAttemptPayload>> = async (ctx, row, payload) => {
  const attempt = ctx.quizzes.row(payload.attemptId);
  if (!attempt || attempt.attemptid !== null) {
    ctx.outbox.remove(row.id);
    return { type: 'done' };
  }
  const answer = await ctx.transport.request('POST', '/quizzes/attempt', {
    json: {
      quizid: attempt.quizid,
      quizRevisionid: attempt.quiz_revisionid,
      answers: JSON.parse(attempt.answers) as unknown,
      score: attempt.score,
      passed: attempt.passed === 1,
      started: attempt.started_at,
      finished: attempt.finished_at,
      ...(attempt.course_stageid !== null ? { course_stageid: attempt.course_stageid } : {}),
      client_uuid: attempt.id,
    },
    schema: attemptWire,
  });
  ctx.db.transaction(() => {
    ctx.quizzes.recorded(attempt.id, { attemptid: answer.attemptid, score: answer.score ?? null, passed: answer.passed ?? null });
    ctx.outbox.remove(row.id);
  })();
  return { type: 'done' };
};
