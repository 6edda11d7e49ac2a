import type { QuizStage } from '../../electron/contract.ts';

/**
 * The answers of a quiz being taken, kept on every change until the core has the attempt. Answers are
 * JSON-copied in: SurveyJS values are JSON, and a copy never drags a Vue proxy into IndexedDB.
 */
export interface QuizDraft {
  id: string;
  /** Whose answers: the technician's key (drafts/keys.ts); another technician taking the same quiz starts blank. */
  technician: string;
  quizRevisionid: number;
  courseStageid: number | null;
  answers: Record<string, unknown>;
  /** The SurveyJS page the technician was on. */
  pageNo: number;
  /** Unix seconds: when the quiz was opened, so a reload does not restart the attempt's clock. */
  startedAt: number;
  updatedAt: number;
}

/**
 * One draft per technician and quiz revision: a new revision is a different quiz, whose answers must not be mixed in.
 */
export const quizDraftKey = (technician: string, quizRevisionid: number): string =>
  JSON.stringify([technician, quizRevisionid]);

export function makeQuizDraft(input: Omit<QuizDraft, 'id' | 'updatedAt'>, now = Date.now()): QuizDraft {
  return {
    ...input,
    id: quizDraftKey(input.technician, input.quizRevisionid),
    answers: JSON.parse(JSON.stringify(input.answers)) as Record<string, unknown>,
    updatedAt: now,
  };
}

/** Answers that hold something: SurveyJS keeps a cleared text as '' and an emptied checkbox as []. */
export function givenAnswers(answers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(answers).filter(
      ([, value]) =>
        value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0),
    ),
  );
}

/**
 * What a stored draft brings back to a quiz opened again, or null when it holds no answer. A stage the
 * technician no longer has is dropped (the view then picks again).
 */
export function restoredDraft(
  draft: QuizDraft | undefined,
  stages: readonly QuizStage[],
): { answers: Record<string, unknown>; pageNo: number; startedAt: number; courseStageid: number | null } | null {
  if (!draft) return null;
  const answers = givenAnswers(draft.answers);
  if (Object.keys(answers).length === 0) return null;
  const courseStageid = stages.some((s) => s.courseStageid === draft.courseStageid) ? draft.courseStageid : null;
  return { answers, pageNo: Math.max(0, Math.floor(draft.pageNo)), startedAt: draft.startedAt, courseStageid };
}
