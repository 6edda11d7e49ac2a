import { z } from 'zod';
import type { QuizApi } from '../../contract.ts';
import { id } from '../method-inputs.ts';
import { defineMethods } from '../methods.ts';
import type { QuizService } from './quiz-service.ts';

/** The App API of quizzes: the stored ones, taking one, and the attempts taken here. */
export const quizMethods = defineMethods<keyof QuizApi, QuizService>({
  getQuiz: { input: z.tuple([id]), run: (quiz, quizRevisionid) => quiz.quiz(quizRevisionid) },
  listQuizzes: { input: z.tuple([]), run: (quiz) => quiz.list() },
  submitQuizAttempt: {
    input: z.tuple([
      z.object({
        quizRevisionid: id,
        answers: z
          .record(z.string().max(200), z.unknown())
          .refine((a) => JSON.stringify(a).length <= 200_000, 'answers are too large'),
        startedAt: z.number().int().nonnegative(),
        courseStageid: id.optional(),
      }),
    ]),
    work: true,
    technician: true,
    run: (quiz, input) => quiz.submit(input),
  },
  listQuizAttempts: {
    input: z.tuple([z.object({ quizid: id.optional() })]),
    technician: true,
    run: (quiz, { quizid }) => quiz.attempts(quizid),
  },
});
