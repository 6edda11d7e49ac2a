import type { z } from 'zod';
import { postAttempt } from '../../api/quizzes-api.ts';
import type { quizAttemptPayload } from '../payloads.ts';
import type { Handler } from '../replay-context.ts';

/** Sends a quiz attempt once; the site keeps one attempt per id, so a repeat after a lost answer is harmless. */
export const replayQuizAttempt: Handler<z.infer<typeof quizAttemptPayload>> = async (ctx, row, payload) => {
  const attempt = ctx.quizzes.attempt(payload.attemptId);
  if (!attempt || attempt.siteAttemptid !== null) {
    ctx.outbox.remove(row.id);
    return { type: 'done' };
  }
  const answer = await postAttempt(ctx.transport, attempt);
  ctx.transaction(() => {
    ctx.quizzes.recorded(attempt.id, answer);
    ctx.outbox.remove(row.id);
  });
  return { type: 'done' };
};
