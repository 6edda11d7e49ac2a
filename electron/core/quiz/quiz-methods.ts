import type { AppApi } from '../../contract.ts';
import { ok } from '../result.ts';
import type { QuizService } from './quiz-service.ts';

/** The App API of quizzes: the stored ones, taking one, and the attempts taken here. */
export function quizMethods(
  quiz: QuizService,
): Pick<AppApi, 'getQuiz' | 'listQuizzes' | 'submitQuizAttempt' | 'listQuizAttempts'> {
  return {
    getQuiz: async (quizRevisionid) => ok(quiz.quiz(quizRevisionid)),
    listQuizzes: async () => ok(quiz.list()),
    submitQuizAttempt: async (input) => ok(quiz.submit(input)),
    listQuizAttempts: async ({ quizid }) => ok(quiz.attempts(quizid)),
  };
}
