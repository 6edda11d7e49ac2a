import { z } from 'zod';
import { surveyAsData } from '../../../shared/quiz-survey.ts';

/** `GET /quizzes/associations/{guideid}`: quizzes attached to a guide (shape decided, DESIGN.md §7). */
export const quizAssociationWire = z
  .object({
    quizid: z.number().int(),
    quizRevisionid: z.number().int().nullish(),
    quiz_revisionid: z.number().int().nullish(),
    current_revisionid: z.number().int().nullish(),
    title: z.string().nullish(),
    passing_score: z.number().nullish(),
    passingScore: z.number().nullish(),
  })
  .loose()
  .transform((a) => ({
    quizid: a.quizid,
    quizRevisionid: a.quizRevisionid ?? a.quiz_revisionid ?? a.current_revisionid ?? null,
    title: a.title ?? null,
    passingScore: a.passingScore ?? a.passing_score ?? null,
  }));
export const quizAssociationListWire = z.array(quizAssociationWire);

/**
 * `GET /quizzes/{quizRevisionid}`: the survey itself (ids added at the top), or wrapped under `survey`.
 * Any JSON object is stored: a malformed survey must not stop the guide's sync; the quiz says what is
 * wrong with it when it is opened (quiz/scoring.ts). One nested too deep is refused before it is parsed
 * (quizzes-api.ts, MAX_SURVEY_DEPTH) and stored as that refusal.
 */
export const quizRevisionWire = z
  .object({
    quizid: z.number().int().nullish(),
    quizRevisionid: z.number().int().nullish(),
    title: z.string().nullish(),
    passing_score: z.number().nullish(),
    passingScore: z.number().nullish(),
    survey: z.unknown().optional(),
  })
  .loose()
  .transform((o) => ({
    // Data only: what would navigate, write cookies, fetch or post is left out (shared/quiz-survey.ts).
    survey: surveyAsData(o.survey !== undefined ? o.survey : o),
    title: o.title ?? null,
    passingScore: o.passingScore ?? o.passing_score ?? null,
    /** The revision the answer says it is, when it says (a bare survey does not). */
    quizRevisionid: o.quizRevisionid ?? null,
  }));

/** `GET /quizzes/courseAssignments/{quizid}`: course stages holding the quiz. */
export const courseAssignmentListWire = z.array(
  z
    .object({ course_stageid: z.number().int(), stage_title: z.string().nullish(), course_title: z.string().nullish() })
    .loose(),
);

/**
 * `GET /quizzes/passingScore/{course_stageid}/{quizid}`: the score that applies for the stage, and
 * (`source`) whether the stage sets it or falls back to the quiz's. Only a stage's own score is kept
 * as the stage's: the fallback is the quiz's, which the quiz already carries.
 */
export const passingScoreWire = z.union([
  z.number().transform((score) => ({ score, own: true })),
  z
    .object({ passingScore: z.number().nullish(), passing_score: z.number().nullish(), source: z.string().nullish() })
    .loose()
    .transform((o) => ({
      score: o.passingScore ?? o.passing_score ?? null,
      own: o.source == null || o.source === 'course_stage',
    })),
]);

/** `POST /quizzes/getQuizzes` (the site's quiz list, paged; shape in server/README.md). */
export const quizListWire = z
  .object({
    results: z.array(
      z
        .object({
          quizid: z.number().int(),
          quizRevisionid: z.number().int().nullish(),
          title: z.string().nullish(),
          passing_score: z.number().nullish(),
        })
        .loose(),
    ),
    moreResults: z.boolean().nullish(),
  })
  .loose();

/** `POST /quizzes/attempt` answer. */
export const attemptWire = z
  .object({
    attemptid: z.number().int(),
    score: z.number().nullish(),
    passed: z.boolean().nullish(),
    /** What the site says the attempt is, when it says: the client's id for it, and the quiz revision. */
    client_uuid: z.string().nullish(),
    quizRevisionid: z.number().int().nullish(),
  })
  .loose();
