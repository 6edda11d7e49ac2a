import { randomUUID } from 'node:crypto';
import type { QuizAttempt, QuizAttemptInput, QuizRevision } from '../../contract.ts';
import type { Db } from '../db/open.ts';
import type { GuidesRepo } from '../db/repos/guides-repo.ts';
import type { OutboxRepo } from '../db/repos/outbox-repo.ts';
import type { QuizzesRepo } from '../db/repos/quizzes-repo.ts';
import { AppFailure } from '../result.ts';
import { hasPassed, passingFor } from '../../shared/quiz.ts';
import { QuizFormatError, scoreAttempt, scoredQuestions } from './scoring.ts';

export interface QuizServiceDeps {
  db: Db;
  guides: GuidesRepo;
  quizzes: QuizzesRepo;
  outbox: OutboxRepo;
  now: () => number;
  actedAt: () => number;
  onAttempt: (attempt: QuizAttempt) => void;
  kick: () => void;
}

/** Taking quizzes offline: the stored revision, checked; attempts scored here and queued for the site. */
export class QuizService {
  constructor(private readonly deps: QuizServiceDeps) {}

  /** A stored quiz, with its course stages; a malformed one is refused with what is wrong with it. */
  quiz(quizRevisionid: number): QuizRevision {
    const stored = this.deps.guides.getQuiz(quizRevisionid);
    if (!stored) throw new AppFailure('not_found', `Quiz revision ${quizRevisionid} is not stored on this computer.`, { quizRevisionid });
    try {
      scoredQuestions(stored.survey);
    } catch (error) {
      if (error instanceof QuizFormatError) {
        throw new AppFailure('invalid_input', `"${stored.title}" cannot be taken: ${error.message}`, { quizRevisionid, problem: error.message });
      }
      throw error;
    }
    return { ...stored, stages: this.deps.quizzes.stages(stored.quizid) };
  }

  list(): (ReturnType<GuidesRepo['storedQuizzes']>[number])[] {
    return this.deps.guides.storedQuizzes();
  }

  submit(input: QuizAttemptInput): QuizAttempt {
    const quiz = this.quiz(input.quizRevisionid);
    const stage = input.courseStageid !== undefined ? quiz.stages.find((s) => s.courseStageid === input.courseStageid) : quiz.stages[0];
    if (input.courseStageid !== undefined && !stage) {
      throw new AppFailure('invalid_input', `Course stage ${input.courseStageid} does not hold "${quiz.title}".`);
    }
    const result = scoreAttempt(quiz.survey, input.answers);
    const passing = passingFor(quiz.passingScore, stage).score;
    const id = randomUUID();
    const finishedAt = this.deps.actedAt();
    this.deps.db.transaction(() => {
      this.deps.quizzes.insertAttempt({
        id,
        quizid: quiz.quizid,
        quiz_revisionid: quiz.quizRevisionid,
        title: quiz.title,
        course_stageid: stage?.courseStageid ?? null,
        answers: JSON.stringify(input.answers),
        score: result.score,
        passed: hasPassed(result.score, passing) ? 1 : 0,
        passing_score: passing,
        results: JSON.stringify(result.questions),
        started_at: Math.min(input.startedAt, finishedAt),
        finished_at: finishedAt,
      });
      this.deps.outbox.add({ chain: `quiz:${id}`, kind: 'quizAttempt', payload: { attemptId: id }, actedAt: finishedAt, now: this.deps.now() });
    })();
    const attempt = this.deps.quizzes.attempt(id)!;
    this.deps.onAttempt(attempt);
    this.deps.kick();
    return attempt;
  }
}
