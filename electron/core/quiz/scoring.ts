import { surveyRefusal } from '../../shared/quiz-survey.ts';

/**
 * Scoring of a SurveyJS quiz (DESIGN.md §7: a quiz revision is SurveyJS JSON with `correctAnswer` on
 * scored questions), the same way the site scores an attempt (`answerMatches`), score = rounded
 * percentage of the scored questions.
 */
export class QuizFormatError extends Error {
  override readonly name = 'QuizFormatError';
}

/** Question types whose answers can be compared with `correctAnswer`. */
export const SCORABLE_TYPES = new Set([
  'radiogroup',
  'checkbox',
  'boolean',
  'dropdown',
  'tagbox',
  'text',
  'comment',
  'rating',
  'imagepicker',
  'ranking',
]);
/** Types that hold no answer (panels are walked into). */
const CONTENT_TYPES = new Set(['html', 'image', 'expression']);

export interface ScoredQuestion {
  name: string;
  title: string;
  type: string;
  expected: unknown;
}

export interface QuestionResult {
  name: string;
  title: string;
  given: unknown;
  expected: unknown;
  correct: boolean;
}

export interface ScoreResult {
  score: number;
  correct: number;
  total: number;
  questions: QuestionResult[];
}

interface Element {
  type?: unknown;
  name?: unknown;
  title?: unknown;
  correctAnswer?: unknown;
  elements?: unknown;
  templateElements?: unknown;
}

/**
 * The scored questions of a survey, or a QuizFormatError that says in plain words what is wrong:
 * not an object, no pages or elements, a question without a name, a name used twice, a question with a
 * correct answer of a type that cannot be compared, or nothing to score at all.
 */
export function scoredQuestions(survey: unknown): ScoredQuestion[] {
  const refused = surveyRefusal(survey);
  if (refused !== null) throw new QuizFormatError(refused);
  if (!survey || typeof survey !== 'object' || Array.isArray(survey))
    throw new QuizFormatError('The quiz is not a SurveyJS definition (not an object).');
  const root = survey as { pages?: unknown; elements?: unknown };
  const pages = Array.isArray(root.pages)
    ? root.pages
    : root.elements !== undefined
      ? [{ elements: root.elements }]
      : null;
  if (!pages || pages.length === 0) throw new QuizFormatError('The quiz has no pages or questions.');
  const found: ScoredQuestion[] = [];
  const names = new Set<string>();
  const walk = (elements: unknown, where: string): void => {
    if (elements === undefined) return;
    if (!Array.isArray(elements)) throw new QuizFormatError(`${where}: "elements" is not a list.`);
    for (const [index, raw] of elements.entries()) {
      if (!raw || typeof raw !== 'object')
        throw new QuizFormatError(`${where}: element ${index + 1} is not an object.`);
      const element = raw as Element;
      const type = typeof element.type === 'string' ? element.type : '';
      if (type === 'panel' || type === 'paneldynamic') {
        walk(element.elements ?? element.templateElements, `${where} › panel ${String(element.name ?? index + 1)}`);
        continue;
      }
      if (CONTENT_TYPES.has(type)) continue;
      if (typeof element.name !== 'string' || element.name === '')
        throw new QuizFormatError(`${where}: question ${index + 1} has no name.`);
      if (names.has(element.name)) throw new QuizFormatError(`${where}: two questions are named "${element.name}".`);
      names.add(element.name);
      if (element.correctAnswer === undefined) continue;
      if (!SCORABLE_TYPES.has(type)) {
        throw new QuizFormatError(
          `Question "${element.name}" is of type "${type || 'unknown'}", which Fieldguide cannot score.`,
        );
      }
      found.push({
        name: element.name,
        title: typeof element.title === 'string' ? element.title : element.name,
        type,
        expected: element.correctAnswer,
      });
    }
  };
  pages.forEach((page, index) => {
    if (!page || typeof page !== 'object') throw new QuizFormatError(`Page ${index + 1} is not an object.`);
    walk((page as { elements?: unknown }).elements, `Page ${index + 1}`);
  });
  if (found.length === 0)
    throw new QuizFormatError('The quiz has no question with a correct answer, so it cannot be scored.');
  return found;
}

/**
 * Whether an answer is the correct one, as SurveyJS judges it (Question.isAnswerCorrect, survey-core 3.0.0
 * Helpers.checkIfValuesEqual): two strings ignore case and surrounding space ("007" is not "7"); a number and a
 * string are compared as numbers where both read as one (a number box gives 4 where the quiz says "4": it read
 * "4 · 4 · Wrong"); a checkbox's or tag box's choices count in any order, a ranking's only in its order (Lock out,
 * then bleed the tank: the other way round scored right).
 */
export function answerMatches(given: unknown, expected: unknown, type = ''): boolean {
  if (Array.isArray(expected)) {
    if (!Array.isArray(given) || given.length !== expected.length) return false;
    if (type === 'ranking') return expected.every((value, index) => sameValue(given[index], value));
    const left = [...given];
    return expected.every((value) => {
      const at = left.findIndex((item) => sameValue(item, value));
      return at >= 0 && left.splice(at, 1).length === 1;
    });
  }
  return sameValue(given, expected);
}

const numberLike = (value: unknown): boolean =>
  value !== undefined && value !== null && !Array.isArray(value) && !Number.isNaN(Number(value)) && value !== '';

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.trim().toLowerCase() === b.trim().toLowerCase();
  if (typeof a !== 'boolean' && typeof b !== 'boolean' && numberLike(a) && numberLike(b)) {
    const [x, y] = [String(a), String(b)];
    return parseInt(x, 10) === parseInt(y, 10) && parseFloat(x) === parseFloat(y);
  }
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

export function scoreAttempt(survey: unknown, answers: Record<string, unknown>): ScoreResult {
  const questions = scoredQuestions(survey).map((q) => {
    const given = answers[q.name];
    return {
      name: q.name,
      title: q.title,
      given: given ?? null,
      expected: q.expected,
      correct: given !== undefined && answerMatches(given, q.expected, q.type),
    };
  });
  const correct = questions.filter((q) => q.correct).length;
  return { score: Math.round((correct / questions.length) * 100), correct, total: questions.length, questions };
}
