import { randomUUID } from 'node:crypto';
import type { QuizAttempt, QuizAttemptInput, QuizRef, QuizRevision, QuizStage } from '../../contract.ts';
import type { ServerClock } from '../connection/server-clock.ts';
import type { GuideReader } from '../db/repos/guide-row.ts';
import type { Store } from '../db/store.ts';
import type { EventHub } from '../events.ts';
import type { Outbox } from '../outbox/outbox.ts';
import { AppFailure } from '../result.ts';
import { hasPassed, passingFor } from '../../shared/quiz.ts';
import { quizAttemptAction } from './quiz-attempt-action.ts';
import { quizChain } from './quiz-outbox.ts';
import { QuizFormatError, scoreAttempt, scoredQuestions } from './scoring.ts';

export interface QuizServiceDeps {
  store: Store;
  events: EventHub;
  clock: Pick<ServerClock, 'stamp'>;
  /** Where attempts are queued for the site (it wakes by itself). */
  outbox: Pick<Outbox, 'enqueue'>;
  /** The current technician's local id, or null: an attempt is theirs. */
  technician: () => number | null;
  /** Who reads: a quiz only on private guides they may not read is not theirs to see. */
  reader: () => GuideReader | null;
}

/** Taking quizzes offline: the stored revision, checked; attempts scored here and queued for the site. */
export class QuizService {
  constructor(private readonly deps: QuizServiceDeps) {}

  /** A stored quiz, with its course stages; a malformed one is refused with what is wrong with it. */
  quiz(quizRevisionid: number): QuizRevision {
    const stored = this.deps.store.quizzes.revision(quizRevisionid);
    const hidden = stored && this.#hidden(this.deps.store.quizzes.guidesOf(stored.quizid));
    if (!stored || hidden)
      throw new AppFailure('not_found', 'The site may have removed it, or it goes with guides not kept here.', {
        quizRevisionid,
      });
    try {
      scoredQuestions(stored.survey);
    } catch (error) {
      if (error instanceof QuizFormatError) {
        throw new AppFailure('invalid_input', `"${stored.title}" cannot be taken: ${error.message}`, {
          quizRevisionid,
          problem: error.message,
        });
      }
      throw error;
    }
    return { ...stored, stages: this.deps.store.quizzes.stages(stored.quizid) };
  }

  /** The quizzes stored here (the newest revision of each), with the stored guides they belong to. */
  list(): (QuizRef & { guideids: number[]; stages: QuizStage[] })[] {
    const reader = this.deps.reader();
    const { quizzes, guides } = this.deps.store;
    return quizzes
      .storedQuizzes()
      .filter((quiz) => !this.#hidden(quiz.guideids))
      .map((quiz) => ({
        ...quiz,
        guideids: quiz.guideids.filter((id) => guides.readable(id, reader)),
        stages: quizzes.stages(quiz.quizid),
      }));
  }

  /** A quiz attached to guides, none of which the reader may see (a course quiz on no guide is for everyone). */
  #hidden(guideids: number[]): boolean {
    const reader = this.deps.reader();
    return guideids.length > 0 && !guideids.some((id) => this.deps.store.guides.readable(id, reader));
  }

  /** The current technician's attempts taken on this computer (of one quiz, or all), newest first. */
  attempts(quizid: number | undefined): QuizAttempt[] {
    return this.deps.store.quizzes.attempts(quizid, this.#me());
  }

  #me(): number {
    const id = this.deps.technician();
    if (id === null) throw new AppFailure('unauthorized', 'Sign in to a site first.');
    return id;
  }

  submit(input: QuizAttemptInput): QuizAttempt {
    const quiz = this.quiz(input.quizRevisionid);
    const stage =
      input.courseStageid !== undefined
        ? quiz.stages.find((s) => s.courseStageid === input.courseStageid)
        : quiz.stages[0];
    if (input.courseStageid !== undefined && !stage) {
      throw new AppFailure('invalid_input', `Course stage ${input.courseStageid} does not hold "${quiz.title}".`);
    }
    const result = scoreAttempt(quiz.survey, input.answers);
    const passing = passingFor(quiz.passingScore, stage).score;
    const id = randomUUID();
    const stamp = this.deps.clock.stamp();
    const finishedAt = stamp.at;
    const technician = this.#me();
    this.deps.store.transaction(() => {
      this.deps.store.quizzes.insertAttempt({
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
        technician,
      });
      const at = { chain: quizChain(id), actedAt: finishedAt, technician, stamp };
      this.deps.outbox.enqueue(quizAttemptAction, { attemptId: id }, at);
    });
    const attempt = this.deps.store.quizzes.attempt(id)!;
    this.deps.events.emit('quizAttempt', attempt);
    return attempt;
  }
}
