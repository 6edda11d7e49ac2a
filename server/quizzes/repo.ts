import type { Db } from '../db/types.ts';

/** A SurveyJS survey definition (only the parts this server reads are typed). */
export interface SurveyJson {
  title?: string;
  pages?: { name?: string; elements?: SurveyElement[] }[];
  [key: string]: unknown;
}

export interface SurveyElement {
  type: string;
  name: string;
  title?: string;
  correctAnswer?: unknown;
  elements?: SurveyElement[];
  [key: string]: unknown;
}

export interface QuizRow {
  quizid: number;
  title: string;
  description: string;
  passing_score: number;
  current_revisionid: number | null;
  userid: number | null;
  created: number;
  modified: number;
}

export function insertQuiz(
  db: Db,
  quiz: {
    title: string;
    description: string;
    passing_score: number;
    survey: SurveyJson;
    userid: number | null;
    created: number;
  },
): { quizid: number; quizRevisionid: number } {
  const quizid = Number(
    db
      .prepare(
        'INSERT INTO quizzes (title, description, passing_score, userid, created, modified) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(quiz.title, quiz.description, quiz.passing_score, quiz.userid, quiz.created, quiz.created).lastInsertRowid,
  );
  const quizRevisionid = Number(
    db
      .prepare('INSERT INTO quiz_revisions (quizid, survey, created) VALUES (?, ?, ?)')
      .run(quizid, JSON.stringify(quiz.survey), quiz.created).lastInsertRowid,
  );
  db.prepare('UPDATE quizzes SET current_revisionid = ? WHERE quizid = ?').run(quizRevisionid, quizid);
  return { quizid, quizRevisionid };
}

export function getQuiz(db: Db, quizid: number): QuizRow | undefined {
  return db.prepare('SELECT * FROM quizzes WHERE quizid = ?').get(quizid) as QuizRow | undefined;
}

export function getQuizRevision(
  db: Db,
  quizRevisionid: number,
): { quizid: number; quizRevisionid: number; survey: SurveyJson } | undefined {
  const row = db
    .prepare('SELECT quizid, quizRevisionid, survey FROM quiz_revisions WHERE quizRevisionid = ?')
    .get(quizRevisionid) as { quizid: number; quizRevisionid: number; survey: string } | undefined;
  return row ? { ...row, survey: JSON.parse(row.survey) as SurveyJson } : undefined;
}

/** Every question of a survey, panels flattened. */
export function questionsOf(survey: SurveyJson): SurveyElement[] {
  const out: SurveyElement[] = [];
  const walk = (elements: SurveyElement[] | undefined) => {
    for (const element of elements ?? []) {
      if (element.type === 'panel') walk(element.elements);
      else out.push(element);
    }
  };
  for (const page of survey.pages ?? []) walk(page.elements);
  return out;
}

/**
 * SurveyJS-style equality (Question.isAnswerCorrect, Helpers.checkIfValuesEqual): two strings ignore case and
 * surrounding space, a number and a string are compared as numbers where both read as one, a checkbox's list
 * ignores order and a ranking's does not.
 */
export function answerMatches(answer: unknown, correct: unknown, type = ''): boolean {
  if (Array.isArray(correct)) {
    if (!Array.isArray(answer) || answer.length !== correct.length) return false;
    if (type === 'ranking') return correct.every((value, i) => sameValue(answer[i], value));
    const left = [...answer];
    return correct.every((value) => {
      const at = left.findIndex((item) => sameValue(item, value));
      return at >= 0 && left.splice(at, 1).length === 1;
    });
  }
  return sameValue(answer, correct);
}

const numeric = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== '' && !Array.isArray(value) && !Number.isNaN(Number(value));

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.trim().toLowerCase() === b.trim().toLowerCase();
  if (typeof a !== 'boolean' && typeof b !== 'boolean' && numeric(a) && numeric(b))
    return parseInt(String(a), 10) === parseInt(String(b), 10) && parseFloat(String(a)) === parseFloat(String(b));
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Percentage (0..100, rounded) of questions with a `correctAnswer` that the answers get right. */
export function scoreAnswers(
  survey: SurveyJson,
  answers: Record<string, unknown>,
): { score: number; correct: number; total: number } {
  const scored = questionsOf(survey).filter((q) => q.correctAnswer !== undefined);
  const correct = scored.filter((q) => answerMatches(answers[q.name], q.correctAnswer, q.type)).length;
  const total = scored.length;
  return { score: total === 0 ? 100 : Math.round((100 * correct) / total), correct, total };
}
