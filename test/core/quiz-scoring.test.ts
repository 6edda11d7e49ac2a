import { describe, expect, it } from 'vitest';
import { answerMatches, QuizFormatError, scoreAttempt, scoredQuestions } from '../../electron/core/quiz/scoring.ts';
import { DEMO_QUIZZES } from '../../server/demo/quizzes.ts';

// Scoring of every question type the demo quizzes use, against the demo quizzes themselves.
const question = (type: string, correctAnswer: unknown, extra: Record<string, unknown> = {}) => ({
  pages: [{ elements: [{ type, name: 'q', title: 'Q', correctAnswer, ...extra }] }],
});

describe('scoring a quiz', () => {
  it('radiogroup and dropdown: the one right choice', () => {
    for (const type of ['radiogroup', 'dropdown']) {
      expect(scoreAttempt(question(type, '0 psi, confirmed'), { q: '0 psi, confirmed' }).score).toBe(100);
      expect(scoreAttempt(question(type, '0 psi, confirmed'), { q: 'Below 50 psi' }).score).toBe(0);
      expect(scoreAttempt(question(type, '0 psi, confirmed'), {}).score).toBe(0);
    }
  });

  it('checkbox: the same set in any order, nothing missing and nothing extra', () => {
    const quiz = question('checkbox', ['Air in the tank', 'The hot pump head']);
    expect(scoreAttempt(quiz, { q: ['The hot pump head', 'Air in the tank'] }).score).toBe(100);
    expect(scoreAttempt(quiz, { q: ['Air in the tank'] }).score).toBe(0);
    expect(scoreAttempt(quiz, { q: ['Air in the tank', 'The hot pump head', 'The paint colour'] }).score).toBe(0);
    expect(scoreAttempt(quiz, { q: 'Air in the tank' }).score).toBe(0);
  });

  it('boolean: true and false are answers, and a missing answer is wrong', () => {
    expect(scoreAttempt(question('boolean', false), { q: false }).score).toBe(100);
    expect(scoreAttempt(question('boolean', false), { q: true }).score).toBe(0);
    expect(scoreAttempt(question('boolean', false), {}).score).toBe(0);
    expect(answerMatches('false', false)).toBe(false);
  });

  it("ranking: the order is the answer (a checkbox's is not)", () => {
    const order = ['Lock out', 'Bleed the tank', 'Remove the guard'];
    expect(scoreAttempt(question('ranking', order), { q: [...order] }).score).toBe(100);
    expect(
      scoreAttempt(question('ranking', order), { q: ['Bleed the tank', 'Lock out', 'Remove the guard'] }).score,
    ).toBe(0);
    expect(scoreAttempt(question('checkbox', order), { q: [...order].reverse() }).score).toBe(100);
  });

  it('a number box: the number typed is the number the quiz writes as text, and the other way round', () => {
    expect(scoreAttempt(question('text', '4'), { q: 4 }).score).toBe(100);
    expect(scoreAttempt(question('text', 150), { q: ' 150 ' }).score).toBe(100);
    expect(scoreAttempt(question('text', '4'), { q: 5 }).score).toBe(0);
    expect(scoreAttempt(question('text', '4'), { q: '' }).score).toBe(0);
    // Two strings are compared as strings, as SurveyJS does: a part number "007" is not "7".
    expect(scoreAttempt(question('text', '007'), { q: '7' }).score).toBe(0);
    expect(scoreAttempt(question('text', 10), { q: '0xA' }).score).toBe(0);
  });

  it('text: case and surrounding space do not matter, the words do', () => {
    expect(scoreAttempt(question('text', 'Lockout'), { q: '  lockOUT ' }).score).toBe(100);
    expect(scoreAttempt(question('text', 'Lockout'), { q: 'lock out' }).score).toBe(0);
  });

  it('scores the rounded percentage of the questions that have a correct answer', () => {
    const quiz = {
      pages: [
        {
          elements: [
            { type: 'radiogroup', name: 'a', correctAnswer: 'x' },
            { type: 'text', name: 'b', correctAnswer: 'y' },
            { type: 'text', name: 'c', correctAnswer: 'z' },
            { type: 'comment', name: 'notes' },
            { type: 'html', name: 'intro' },
          ],
        },
      ],
    };
    const result = scoreAttempt(quiz, { a: 'x', b: 'nope', notes: 'anything' });
    expect(result).toMatchObject({ score: 33, correct: 1, total: 3 });
    expect(result.questions.map((q) => [q.name, q.correct])).toEqual([
      ['a', true],
      ['b', false],
      ['c', false],
    ]);
  });

  it('every demo quiz scores 100 with its own correct answers and 0 with none', () => {
    expect(DEMO_QUIZZES.length).toBe(3);
    for (const quiz of DEMO_QUIZZES) {
      const questions = scoredQuestions(quiz.survey);
      const types = new Set(questions.map((q) => q.type));
      expect(types.size, quiz.title).toBeGreaterThan(1);
      const right = Object.fromEntries(questions.map((q) => [q.name, q.expected]));
      expect(scoreAttempt(quiz.survey, right).score, quiz.title).toBe(100);
      expect(scoreAttempt(quiz.survey, {}).score, quiz.title).toBe(0);
    }
    const allTypes = new Set(DEMO_QUIZZES.flatMap((quiz) => scoredQuestions(quiz.survey).map((q) => q.type)));
    expect([...allTypes].sort()).toEqual(['boolean', 'checkbox', 'dropdown', 'radiogroup', 'text']);
  });
});

describe('a quiz that cannot be scored', () => {
  it.each([
    ['not an object', 'oops', /not a SurveyJS definition/],
    ['no pages', { title: 'Empty' }, /no pages or questions/],
    ['a question without a name', { pages: [{ elements: [{ type: 'text', correctAnswer: 'a' }] }] }, /has no name/],
    [
      'two questions with one name',
      {
        pages: [
          {
            elements: [
              { type: 'text', name: 'a', correctAnswer: 'a' },
              { type: 'text', name: 'a' },
            ],
          },
        ],
      },
      /two questions are named "a"/,
    ],
    ['an unscorable type', question('signaturepad', 'x'), /type "signaturepad", which Fieldguide cannot score/],
    [
      'nothing to score',
      { pages: [{ elements: [{ type: 'comment', name: 'notes' }] }] },
      /no question with a correct answer/,
    ],
  ])('%s is refused with a clear message', (_what, survey, message) => {
    expect(() => scoredQuestions(survey)).toThrow(QuizFormatError);
    expect(() => scoredQuestions(survey)).toThrow(message);
  });
});
