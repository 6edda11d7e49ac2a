import type { QuizRef } from './guide.ts';
import type { Result } from './result.ts';

/** The App API of quizzes: the stored ones, taking one offline, and the attempts taken here. */

export interface QuizRevision {
  quizid: number;
  quizRevisionid: number;
  title: string;
  /** SurveyJS JSON (DESIGN.md §7). */
  survey: unknown;
  /** The quiz's own passing score (percent). */
  passingScore: number | null;
  /** Course stages of this technician that hold the quiz; a stage's passing score applies over the quiz's. */
  stages: QuizStage[];
}

export interface QuizStage {
  courseStageid: number;
  title: string;
  passingScore: number | null;
}

export interface QuizAttemptInput {
  quizRevisionid: number;
  /** SurveyJS answers by question name. */
  answers: Record<string, unknown>;
  /** Unix seconds, when the technician opened the quiz. */
  startedAt: number;
  courseStageid?: number;
}

export interface QuizAttempt {
  /** Local id: the attempt exists before the site knows it. */
  id: string;
  quizid: number;
  quizRevisionid: number;
  title: string;
  courseStageid: number | null;
  answers: Record<string, unknown>;
  score: number;
  passed: boolean;
  passingScore: number | null;
  questions: { name: string; title: string; given: unknown; expected: unknown; correct: boolean }[];
  startedAt: number;
  finishedAt: number;
  sync: 'pending' | 'sent' | 'failed';
  syncError: string | null;
  siteAttemptid: number | null;
  /**
   * The site's own scoring, once it recorded the attempt: its score and verdict, against its pass mark (which
   * may have changed since this computer last learned it); null until it answered (or where it said neither).
   */
  site: { score: number | null; passed: boolean | null } | null;
  /** When the App API read this copy, in the order of its reads (as WorkSession.readOrder). */
  readOrder: number;
}

export interface QuizApi {
  getQuiz(quizRevisionid: number): Promise<Result<QuizRevision>>;
  /** Scores an attempt here (no network needed) and queues it for the site. */
  submitQuizAttempt(input: QuizAttemptInput): Promise<Result<QuizAttempt>>;
  listQuizAttempts(filter: { quizid?: number }): Promise<Result<QuizAttempt[]>>;
  /** The quizzes stored on this computer, with their course stages (each may set its own pass mark). */
  listQuizzes(): Promise<Result<(QuizRef & { guideids: number[]; stages: QuizStage[] })[]>>;
}
