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

/** A SurveyJS definition: an object with pages or elements. Scoring checks questions later (issue 6). */
export const surveyWire = z
  .object({
    title: z.string().nullish(),
    pages: z.array(z.object({ elements: z.array(z.unknown()).nullish() }).loose()).nullish(),
    elements: z.array(z.unknown()).nullish(),
  })
  .loose()
  .refine((s) => (s.pages?.length ?? 0) > 0 || (s.elements?.length ?? 0) > 0, 'a quiz needs at least one page or element');

/** `GET /quizzes/{quizRevisionid}`: the survey itself, or wrapped with its ids. */
export const quizRevisionWire = z.union([
  z
    .object({
      quizid: z.number().int().nullish(),
      quizRevisionid: z.number().int().nullish(),
      title: z.string().nullish(),
      passing_score: z.number().nullish(),
      passingScore: z.number().nullish(),
      survey: surveyWire,
    })
    .loose(),
  surveyWire.transform((survey) => ({ survey, quizid: null, quizRevisionid: null, title: survey.title ?? null, passing_score: null, passingScore: null })),
]);

/** `GET /quizzes/passingScore/...`: a number, or an object carrying it. */
export const passingScoreWire = z.union([
  z.number(),
  z.object({ passing_score: z.number() }).loose().transform((o) => o.passing_score),
  z.object({ passingScore: z.number() }).loose().transform((o) => o.passingScore),
]);
