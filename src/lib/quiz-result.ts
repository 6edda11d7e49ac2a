import type { QuizAttempt } from '../../electron/contract.ts';
import type { PassingSource } from '../../electron/shared/quiz.ts';

/** How a question's answers read to a technician: choice texts by value, and the yes/no labels. */
export interface AnswerLabels {
  choices: Map<string, string>;
  labelTrue: string;
  labelFalse: string;
}

export interface ResultRow {
  name: string;
  title: string;
  given: string;
  expected: string;
  correct: boolean;
}

interface RawElement {
  type?: unknown;
  name?: unknown;
  elements?: unknown;
  templateElements?: unknown;
  choices?: unknown;
  labelTrue?: unknown;
  labelFalse?: unknown;
}

/** SurveyJS texts are strings or localised objects (`{default, de, ...}`). */
function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { default?: unknown }).default === 'string')
    return (value as { default: string }).default;
  return null;
}

/**
 * The answer labels of every question in a SurveyJS JSON, by question name. Tolerant: it runs on JSON
 * the core already checked, and anything it does not understand is simply shown as the raw value.
 */
export function answerLabels(survey: unknown): Map<string, AnswerLabels> {
  const labels = new Map<string, AnswerLabels>();
  const walk = (elements: unknown): void => {
    if (!Array.isArray(elements)) return;
    for (const raw of elements as unknown[]) {
      if (!raw || typeof raw !== 'object') continue;
      const element = raw as RawElement;
      walk(element.elements ?? element.templateElements);
      if (typeof element.name !== 'string') continue;
      const choices = new Map<string, string>();
      for (const choice of Array.isArray(element.choices) ? (element.choices as unknown[]) : []) {
        if (choice && typeof choice === 'object' && 'value' in choice) {
          const { value, text: shown } = choice as { value: unknown; text?: unknown };
          choices.set(String(value), text(shown) ?? String(value));
        } else if (typeof choice === 'string' || typeof choice === 'number')
          choices.set(String(choice), String(choice));
      }
      labels.set(element.name, {
        choices,
        labelTrue: text(element.labelTrue) ?? 'Yes',
        labelFalse: text(element.labelFalse) ?? 'No',
      });
    }
  };
  const root = survey && typeof survey === 'object' ? (survey as { pages?: unknown; elements?: unknown }) : {};
  if (Array.isArray(root.pages))
    for (const page of root.pages as unknown[]) walk((page as { elements?: unknown } | null)?.elements);
  walk(root.elements);
  return labels;
}

export const NO_ANSWER = 'No answer';

/** One answer as words: choice texts, the question's yes/no labels, lists joined with commas. */
export function answerText(value: unknown, labels?: AnswerLabels): string {
  if (value === null || value === undefined || value === '') return NO_ANSWER;
  if (Array.isArray(value))
    return value.length === 0 ? NO_ANSWER : value.map((item) => answerText(item, labels)).join(', ');
  if (typeof value === 'boolean') return value ? (labels?.labelTrue ?? 'Yes') : (labels?.labelFalse ?? 'No');
  if (typeof value === 'string' || typeof value === 'number')
    return labels?.choices.get(String(value)) ?? String(value);
  return JSON.stringify(value);
}

/** The attempt's questions as the result table shows them: what was given and what was expected, in words. */
export function resultRows(attempt: Pick<QuizAttempt, 'questions'>, survey: unknown): ResultRow[] {
  const labels = answerLabels(survey);
  return attempt.questions.map((q) => ({
    name: q.name,
    title: q.title,
    given: answerText(q.given, labels.get(q.name)),
    expected: answerText(q.expected, labels.get(q.name)),
    correct: q.correct,
  }));
}

/** What an attempt's result says: the site's score and verdict once it has them, and why they differ from here. */
export interface Verdict {
  score: number;
  passed: boolean;
  /** Who scored what is shown. */
  by: 'here' | 'site';
  /** Said when the site's scoring is not this computer's (its pass mark changed since the last sync); else null. */
  differs: string | null;
}

export function verdictOf(attempt: Pick<QuizAttempt, 'score' | 'passed' | 'passingScore' | 'site'>): Verdict {
  const site = attempt.site;
  if (!site) return { score: attempt.score, passed: attempt.passed, by: 'here', differs: null };
  const score = site.score ?? attempt.score;
  const passed = site.passed ?? attempt.passed;
  const words = (p: boolean) => (p ? 'Passed' : 'Not passed');
  const here = score !== attempt.score ? ` (this computer scored ${attempt.score}%)` : '';
  const mark = attempt.passingScore === null ? 'every question right' : `${attempt.passingScore}%`;
  const differs =
    passed !== attempt.passed
      ? `The site recorded ${score}% as ${words(passed)}${here}; against the pass mark this computer knew ` +
        `(${mark}) it was ${words(attempt.passed)}. The site's pass mark may have changed since the last sync: ` +
        'its verdict is the one on your record.'
      : here
        ? `The site scored it ${score}%${here}.`
        : null;
  return { score, passed, by: 'site', differs };
}

export function passingWords(passing: PassingSource): string {
  if (passing.score === null) return 'No pass mark is set: every question must be right.';
  return passing.from === 'stage'
    ? `Pass mark ${passing.score}%, set by the course stage “${passing.stage.title}”.`
    : `Pass mark ${passing.score}%, the quiz's own.`;
}

export const SYNC_WORDS: Readonly<Record<QuizAttempt['sync'], string>> = {
  pending: 'Waiting to be sent',
  sent: 'Reached the site',
  failed: 'Refused by the site',
};

/** Attempts grouped by quiz, newest first. */
export function attemptsByQuiz(attempts: readonly QuizAttempt[]): Map<number, QuizAttempt[]> {
  const groups = new Map<number, QuizAttempt[]>();
  for (const attempt of [...attempts].sort((a, b) => b.finishedAt - a.finishedAt || b.id.localeCompare(a.id))) {
    const group = groups.get(attempt.quizid);
    if (group) group.push(attempt);
    else groups.set(attempt.quizid, [attempt]);
  }
  return groups;
}
