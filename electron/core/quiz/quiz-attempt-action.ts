import { z } from 'zod';
import { postAttempt } from '../api/quizzes-api.ts';
import type { QuizzesRepo } from '../db/repos/quizzes-repo.ts';
import { defineAction } from '../outbox/action-kind.ts';
import { missingHere } from '../outbox/replay-context.ts';

/** What the quiz's kind replays with, beside the outbox's context (quiz-outbox.ts registers it). */
export interface QuizReplayDeps {
  quizzes: QuizzesRepo;
}

export const quizAttemptPayload = z.object({ attemptId: z.string().min(1) });

/** Sends a quiz attempt once; the site keeps one attempt per id, so a repeat after a lost answer is harmless. */
export const quizAttemptAction = defineAction<z.infer<typeof quizAttemptPayload>, QuizReplayDeps>(
  'quizAttempt',
  quizAttemptPayload,
  async (ctx, row, payload) => {
    const attempt = ctx.quizzes.attempt(payload.attemptId);
    if (!attempt) return missingHere('quiz attempt');
    if (attempt.siteAttemptid !== null) {
      ctx.outbox.remove(row.id);
      return { type: 'done' };
    }
    // The action's time is the attempt's end as re-dated and clamped for sending (send-time.ts): its start
    // moves with it.
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
  },
  { describe: () => 'Send a quiz attempt' },
);
