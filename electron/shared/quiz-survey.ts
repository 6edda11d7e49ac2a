/**
 * A site's quiz (SurveyJS JSON) as the app keeps and shows it. The core applies these rules when a quiz
 * arrives and the renderer again before SurveyJS sees one (a quiz stored by an earlier version too).
 */

/** Deeper quizzes are refused before parsing: a real survey nests pages, panels and choices a dozen levels. */
export const MAX_SURVEY_DEPTH = 64;

const REFUSED = 'fieldguideRefused';

/** What is stored in place of a survey the app refused, so the quiz says why when it is opened. */
export function refusedSurvey(reason: string): Record<string, string> {
  return { [REFUSED]: reason };
}

/** The reason a stored survey was refused, or null for a survey that was kept. */
export function surveyRefusal(survey: unknown): string | null {
  if (!survey || typeof survey !== 'object' || Array.isArray(survey)) return null;
  const reason = (survey as Record<string, unknown>)[REFUSED];
  return typeof reason === 'string' ? reason : null;
}
