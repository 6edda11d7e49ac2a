import type { z } from 'zod';
import { postAttempt } from '../../api/quizzes-api.ts';
import type { quizAttemptPayload } from '../payloads.ts';
import { missingHere, type Handler } from '../replay-context.ts';

/** Sends a quiz attempt once; the site keeps one attempt per id, so a repeat after a lost answer is harmless. */
export const replayQuizAttempt: Handler<z.infer<typeof quizAttemptPayload>> = async (ctx, row, payload) => {
  const attempt = ctx.quizzes.attempt(payload.attemptId);
  if (!attempt) return missingHere('quiz attempt');
  if (attempt.siteAttemptid !== null) {
    ctx.outbox.remove(row.id);
    return { type: 'done' };
  }
  // The action's time is the attempt's end as re-dated and clamped for sending (send-time.ts): its start moves with it.
  const shift = row.actedAt - attempt.finishedAt;
  const answer = await postAttempt(ctx.transport, {
    ...attempt,
    startedAt: attempt.startedAt + shift,
    finishedAt: row.actedAt,
  });
  ctx.transaction(() => {
    ctx.quizzes.recorded(attempt.id, answer);
    ctx.outbox.remove(row.id);
  });
  return { type: 'done' };
};
