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

/**
 * SurveyJS properties (survey-core 3.0.0's serializer) that make a survey do more than ask: navigate the
 * window (`navigateToUrl`, `navigateToUrlOnCondition`), write a cookie (`cookieName`, which also shows a
 * "completed before" page), fetch (`choicesByUrl`, an XMLHttpRequest or fetch to any address), fetch
 * pictures from anywhere (`logo`, `backgroundImage`, `imageLink`), or load from and post to SurveyJS's
 * service (`surveyId`, `surveyPostId`, `surveyShowDataSaving`, `partialSendEnabled`,
 * `sendResultOnPageNext`: 3.0.0 only warns that the service is gone, a later version may not). survey-core
 * runs no code from JSON (no eval, no new Function: its expressions call registered functions only).
 */
const ACTING = new Set([
  'navigateToUrl',
  'navigateToUrlOnCondition',
  'cookieName',
  'surveyId',
  'surveyPostId',
  'surveyShowDataSaving',
  'partialSendEnabled',
  'sendResultOnPageNext',
  'choicesByUrl',
  'logo',
  'backgroundImage',
  'imageLink',
]);
/** Answers, not survey structure: kept as they are (a multiple-text item may be called `logo`). */
const ANSWERS = new Set(['correctAnswer', 'defaultValue', 'value']);

/**
 * A site's survey as data: a copy without the properties that navigate, write cookies, fetch or post,
 * at any depth of pages, panels, questions, columns and choices. HTML a survey shows (html questions, text
 * placed into them) is sanitised after SurveyJS's own text processing, where it is shown
 * (components/quiz/QuizSurvey.vue). Copied without recursion, from plain JSON or a reactive view of it.
 */
export function surveyAsData(survey: unknown): unknown {
  const root: { value?: unknown } = {};
  const pending: { from: unknown; into: Record<string, unknown> | unknown[]; key: string | number }[] = [
    { from: survey, into: root as Record<string, unknown>, key: 'value' },
  ];
  while (pending.length > 0) {
    const { from, into, key } = pending.pop()!;
    let copy: unknown = from;
    if (Array.isArray(from)) {
      const items: unknown[] = [];
      from.forEach((item, index) => pending.push({ from: item, into: items, key: index }));
      copy = items;
    } else if (from && typeof from === 'object') {
      const fields: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(from)) {
        if (ACTING.has(name)) continue;
        if (ANSWERS.has(name)) fields[name] = value;
        else pending.push({ from: value, into: fields, key: name });
      }
      copy = fields;
    }
    (into as Record<string | number, unknown>)[key] = copy;
  }
  return root.value;
}
