import { describe, expect, it } from 'vitest';
import type { QuizStage } from '../../electron/contract.ts';
import { passingFor, passingScore } from '../../electron/shared/quiz.ts';

describe('the passing score that applies', () => {
  const stage = (passingScore: number | null): QuizStage => ({
    courseStageid: 4,
    title: 'Compressed air',
    passingScore,
  });

  it("as scores: the course stage's when it sets one, else the quiz's", () => {
    expect(passingScore(80, 90)).toBe(90);
    expect(passingScore(80, 60)).toBe(60);
    expect(passingScore(80, null)).toBe(80);
    expect(passingScore(80, undefined)).toBe(80);
    expect(passingScore(null, undefined)).toBeNull();
  });

  it('is the course stage’s when it sets one, else the quiz’s', () => {
    expect(passingFor(80, stage(90))).toMatchObject({ score: 90, from: 'stage' });
    expect(passingFor(80, stage(60)).score).toBe(60);
    expect(passingFor(80, stage(null))).toEqual({ score: 80, from: 'quiz' });
    expect(passingFor(80, null)).toEqual({ score: 80, from: 'quiz' });
  });
});
