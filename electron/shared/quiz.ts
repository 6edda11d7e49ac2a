import type { QuizStage } from '../contract.ts';

/** The pass mark when neither the quiz nor its course stage sets one: every question must be right. */
export const FULL_MARKS = 100;

/** The passing score that applies: the course stage's when there is one, else the quiz's. */
export function passingScore(quizDefault: number | null, courseStage: number | null | undefined): number | null {
  return courseStage ?? quizDefault;
}

export type PassingSource =
  { score: number | null; from: 'stage'; stage: QuizStage } | { score: number | null; from: 'quiz' };

/** The passing score that applies for a stage (or none), and where it comes from. */
export function passingFor(quizPassingScore: number | null, stage: QuizStage | null | undefined): PassingSource {
  if (stage && stage.passingScore !== null)
    return { score: passingScore(quizPassingScore, stage.passingScore), from: 'stage', stage };
  return { score: quizPassingScore, from: 'quiz' };
}

export const hasPassed = (score: number, passing: number | null): boolean => score >= (passing ?? FULL_MARKS);
