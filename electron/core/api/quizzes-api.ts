import type { QuizAttempt } from '../../contract.ts';
import { MAX_SURVEY_DEPTH, refusedSurvey } from '../../shared/quiz-survey.ts';
import { PAGE_SIZE } from './guides-api.ts';
import { NestedTooDeepError } from './json-depth.ts';
import { ApiError } from './errors.ts';
import type { ApiTransport } from './transport.ts';
import {
  attemptWire,
  courseAssignmentListWire,
  passingScoreWire,
  quizAssociationListWire,
  quizListWire,
  quizRevisionWire,
} from './wire/quiz.ts';

// The quiz reads the sync uses, and the attempt the outbox sends (shapes in DESIGN.md §7, server/README.md).

/** A quiz as a guide's associations or the site's quiz list name it. */
export interface ListedQuiz {
  quizid: number;
  quizRevisionid: number | null;
  title: string | null;
  passingScore: number | null;
}

export const fetchQuizAssociations = (
  transport: ApiTransport,
  guideid: number,
  signal?: AbortSignal,
): Promise<ListedQuiz[]> =>
  transport.request('GET', `/quizzes/associations/${guideid}`, {
    schema: quizAssociationListWire,
    ...(signal ? { signal } : {}),
  });

/**
 * A quiz revision: its SurveyJS JSON, title and the quiz's own passing score. A survey nested deeper than
 * MAX_SURVEY_DEPTH is refused unread and kept as its refusal, so the guide is stored and the quiz says why.
 */
export async function fetchQuizRevision(
  transport: ApiTransport,
  quizRevisionid: number,
  signal?: AbortSignal,
): Promise<{ survey: unknown; title: string | null; passingScore: number | null }> {
  let answer;
  try {
    answer = await transport.request('GET', `/quizzes/${quizRevisionid}`, {
      schema: quizRevisionWire,
      maxDepth: MAX_SURVEY_DEPTH,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (!(error instanceof NestedTooDeepError)) throw error;
    return { survey: refusedSurvey(error.message), title: null, passingScore: null };
  }
  // Another revision's questions (a faulty site, answers mixed up on the way) are not kept as this one's:
  // the technician would answer them, and the attempt be sent as this quiz's, passed or failed.
  if (answer.quizRevisionid !== null && answer.quizRevisionid !== quizRevisionid) {
    throw new ApiError(
      'bad_response',
      `GET /quizzes/${quizRevisionid}`,
      `The site answered quiz revision ${quizRevisionid} with revision ${answer.quizRevisionid}, so it was not ` +
        'kept: the quiz stays as it was, and the next sync asks again.',
    );
  }
  const { survey, title, passingScore } = answer;
  return { survey, title, passingScore };
}

/** One page of the site's quiz list (`POST /quizzes/getQuizzes`), and whether more follow. */
export async function fetchQuizList(
  transport: ApiTransport,
  offset: number,
  signal?: AbortSignal,
): Promise<{ quizzes: ListedQuiz[]; more: boolean }> {
  const page = await transport.request('POST', '/quizzes/getQuizzes', {
    json: { offset, limit: PAGE_SIZE },
    schema: quizListWire,
    idempotent: true,
    ...(signal ? { signal } : {}),
  });
  return {
    quizzes: page.results.map((quiz) => ({
      quizid: quiz.quizid,
      quizRevisionid: quiz.quizRevisionid ?? null,
      title: quiz.title ?? null,
      passingScore: quiz.passing_score ?? null,
    })),
    more: page.moreResults ?? false,
  };
}

/** The course stages that hold a quiz. */
export async function fetchCourseAssignments(
  transport: ApiTransport,
  quizid: number,
  signal?: AbortSignal,
): Promise<{ courseStageid: number; courseTitle: string | null; stageTitle: string | null }[]> {
  const assignments = await transport.request('GET', `/quizzes/courseAssignments/${quizid}`, {
    schema: courseAssignmentListWire,
    ...(signal ? { signal } : {}),
  });
  return assignments.map((a) => ({
    courseStageid: a.course_stageid,
    courseTitle: a.course_title ?? null,
    stageTitle: a.stage_title ?? null,
  }));
}

/** The passing score for a stage, and whether the stage sets it itself (`own`) or falls back to the quiz's. */
export const fetchPassingScore = (
  transport: ApiTransport,
  courseStageid: number,
  quizid: number,
  signal?: AbortSignal,
): Promise<{ score: number | null; own: boolean }> =>
  transport.request('GET', `/quizzes/passingScore/${courseStageid}/${quizid}`, {
    schema: passingScoreWire,
    ...(signal ? { signal } : {}),
  });

/**
 * `POST /quizzes/attempt` with the attempt's own id as `client_uuid`: the site records an attempt once
 * per id, so a repeat after a lost answer returns the attempt already recorded.
 */
export async function postAttempt(
  transport: ApiTransport,
  attempt: QuizAttempt,
): Promise<{ attemptid: number; score: number | null; passed: boolean | null }> {
  const answer = await transport.request('POST', '/quizzes/attempt', {
    json: {
      quizid: attempt.quizid,
      quizRevisionid: attempt.quizRevisionid,
      answers: attempt.answers,
      score: attempt.score,
      passed: attempt.passed,
      started: attempt.startedAt,
      finished: attempt.finishedAt,
      ...(attempt.courseStageid !== null ? { course_stageid: attempt.courseStageid } : {}),
      client_uuid: attempt.id,
    },
    schema: attemptWire,
  });
  // A success with no answer (request.ts reads an empty body as nothing): the attempt may be recorded, its id and
  // result not said. Sent again with its id, the site answers the one it keeps for it (it read "TypeError: Cannot
  // read properties of undefined" in the Sync centre).
  if (answer === undefined || answer === null)
    throw new ApiError(
      'bad_response',
      'POST /quizzes/attempt',
      'The site took this quiz attempt but did not say what it recorded. Fieldguide sends it again to ask: ' +
        'the site keeps one attempt for it.',
    );
  // An answer about another attempt (a faulty site, answers mixed up on the way) is not taken for this one:
  // sent again with its id, the site answers the one it keeps for it.
  const said = { uuid: answer.client_uuid ?? null, revision: answer.quizRevisionid ?? null };
  if (
    (said.uuid !== null && said.uuid !== attempt.id) ||
    (said.revision ?? attempt.quizRevisionid) !== attempt.quizRevisionid
  )
    throw new ApiError(
      'bad_response',
      'POST /quizzes/attempt',
      `The site answered this quiz attempt with another (attempt ${answer.attemptid}), so the answer was not ` +
        'taken. Fieldguide sends it again: the site keeps one attempt for it.',
    );
  return { attemptid: answer.attemptid, score: answer.score ?? null, passed: answer.passed ?? null };
}
