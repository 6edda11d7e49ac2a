import { z } from 'zod';

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
 * wrong with it when it is opened (quiz/scoring.ts).
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
    survey: o.survey !== undefined ? o.survey : o,
    title: o.title ?? null,
    passingScore: o.passingScore ?? o.passing_score ?? null,
  }));

/** `GET /quizzes/courseAssignments/{quizid}`: course stages holding the quiz. */
export const courseAssignmentListWire = z.array(
  z.object({ course_stageid: z.number().int(), stage_title: z.string().nullish(), course_title: z.string().nullish() }).loose(),
);

/** `GET /quizzes/passingScore/{course_stageid}/{quizid}`: a number, or an object carrying it. */
export const passingScoreWire = z.union([
  z.number(),
  z.object({ passingScore: z.number().nullable() }).loose().transform((o) => o.passingScore),
  z.object({ passing_score: z.number().nullable() }).loose().transform((o) => o.passing_score),
]);

/** `POST /quizzes/attempt` answer. */
export const attemptWire = z.object({ attemptid: z.number().int(), score: z.number().nullish(), passed: z.boolean().nullish() }).loose();
