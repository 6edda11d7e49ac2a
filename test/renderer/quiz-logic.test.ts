import { describe, expect, it } from 'vitest';
import type { QuizStage } from '../../electron/contract.ts';
import { givenAnswers, makeQuizDraft, quizDraftKey, restoredDraft } from '../../src/drafts/quiz-draft.ts';
import { passingFor } from '../../electron/shared/quiz.ts';
import {
  answerLabels,
  answerText,
  attemptsByQuiz,
  NO_ANSWER,
  passingWords,
  resultRows,
} from '../../src/lib/quiz-result.ts';

const SURVEY = {
  pages: [
    {
      elements: [
        {
          type: 'radiogroup',
          name: 'pressure',
          title: 'Tank pressure?',
          choices: ['0 psi', '50 psi'],
          correctAnswer: '0 psi',
        },
        {
          type: 'panel',
          name: 'inner',
          elements: [
            {
              type: 'checkbox',
              name: 'sources',
              choices: [
                { value: 'air', text: 'Air in the tank' },
                { value: 'belt', text: { default: 'A tensioned belt' } },
              ],
              correctAnswer: ['air', 'belt'],
            },
          ],
        },
        { type: 'boolean', name: 'plug', labelTrue: 'True', labelFalse: 'False', correctAnswer: false },
        { type: 'boolean', name: 'plain', correctAnswer: true },
      ],
    },
    { elements: [{ type: 'text', name: 'stamp', correctAnswer: 'ASME' }] },
  ],
};

describe('the result of an attempt, in words', () => {
  it('shows choice texts, the question’s yes/no labels and lists joined, not raw values', () => {
    const rows = resultRows(
      {
        questions: [
          { name: 'sources', title: 'sources', given: ['belt'], expected: ['air', 'belt'], correct: false },
          { name: 'plug', title: 'plug', given: false, expected: false, correct: true },
          { name: 'plain', title: 'plain', given: false, expected: true, correct: false },
          { name: 'stamp', title: 'stamp', given: null, expected: 'ASME', correct: false },
        ],
      },
      SURVEY,
    );
    expect(rows.map((r) => [r.given, r.expected, r.correct])).toEqual([
      ['A tensioned belt', 'Air in the tank, A tensioned belt', false],
      ['False', 'False', true],
      ['No', 'Yes', false],
      [NO_ANSWER, 'ASME', false],
    ]);
  });

  it('falls back to the raw value for an answer the JSON has no label for', () => {
    const labels = answerLabels(SURVEY);
    expect(answerText('7 psi', labels.get('pressure'))).toBe('7 psi');
    expect(answerText(42)).toBe('42');
    expect(answerText({ a: 1 })).toBe('{"a":1}');
    expect(answerText([])).toBe(NO_ANSWER);
    expect(answerText('')).toBe(NO_ANSWER);
    expect(answerLabels('not a survey').size).toBe(0);
  });
});

describe('the passing score that applies', () => {
  const stage = (passingScore: number | null): QuizStage => ({
    courseStageid: 4,
    title: 'Compressed air',
    passingScore,
  });

  it('names where it comes from', () => {
    expect(passingWords(passingFor(80, stage(90)))).toBe('Pass mark 90%, set by the course stage “Compressed air”.');
    expect(passingWords(passingFor(70, stage(null)))).toBe("Pass mark 70%, the quiz's own.");
    expect(passingWords(passingFor(null, null))).toMatch(/every question must be right/);
  });
});

describe('quiz drafts', () => {
  const stages: QuizStage[] = [{ courseStageid: 4, title: 'Compressed air', passingScore: 90 }];

  it('have one key per technician and quiz revision', () => {
    expect(quizDraftKey('demo|3', 12)).not.toBe(quizDraftKey('demo|3', 13));
    expect(quizDraftKey('demo|3', 12)).not.toBe(quizDraftKey('demo|4', 12));
    expect(
      makeQuizDraft(
        { technician: 'demo|3', quizRevisionid: 12, courseStageid: null, answers: {}, pageNo: 0, startedAt: 1 },
        5,
      ).id,
    ).toBe(quizDraftKey('demo|3', 12));
  });

  it('copy the answers, so later changes to the survey’s object do not leak in', () => {
    const answers: Record<string, unknown> = { sources: ['air'] };
    const draft = makeQuizDraft(
      { technician: 'demo|3', quizRevisionid: 12, courseStageid: 4, answers, pageNo: 1, startedAt: 100 },
      5,
    );
    (answers.sources as string[]).push('belt');
    expect(draft.answers).toEqual({ sources: ['air'] });
  });

  it('bring back answered questions, the page, the start time and a stage still held', () => {
    const draft = makeQuizDraft({
      technician: 'demo|3',
      quizRevisionid: 12,
      courseStageid: 4,
      answers: { pressure: '0 psi', stamp: '', sources: [], plug: false },
      pageNo: 1,
      startedAt: 100,
    });
    expect(restoredDraft(draft, stages)).toEqual({
      answers: { pressure: '0 psi', plug: false },
      pageNo: 1,
      startedAt: 100,
      courseStageid: 4,
    });
    expect(restoredDraft({ ...draft, courseStageid: 9 }, stages)?.courseStageid).toBeNull();
  });

  it('bring nothing back when nothing was answered', () => {
    expect(restoredDraft(undefined, stages)).toBeNull();
    expect(
      restoredDraft(
        makeQuizDraft({
          technician: 'demo|3',
          quizRevisionid: 12,
          courseStageid: null,
          answers: { stamp: '' },
          pageNo: 0,
          startedAt: 1,
        }),
        stages,
      ),
    ).toBeNull();
    expect(givenAnswers({ a: null, b: undefined, c: 0 })).toEqual({ c: 0 });
  });
});

describe('attempt history', () => {
  it('groups attempts by quiz, newest first', () => {
    const attempt = (id: string, quizid: number, finishedAt: number) =>
      ({ id, quizid, finishedAt }) as Parameters<typeof attemptsByQuiz>[0][number];
    const groups = attemptsByQuiz([attempt('a', 1, 10), attempt('b', 2, 20), attempt('c', 1, 30)]);
    expect(groups.get(1)?.map((a) => a.id)).toEqual(['c', 'a']);
    expect(groups.get(2)?.map((a) => a.id)).toEqual(['b']);
  });
});
