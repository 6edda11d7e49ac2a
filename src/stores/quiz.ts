import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type {
  AppError,
  QuizAttempt,
  QuizAttemptInput,
  QuizRef,
  QuizRevision,
  QuizStage,
  Result,
} from '../../electron/contract.ts';
import { useBridge } from '../bridge/index.ts';
import { attemptsByQuiz } from '../lib/quiz-result.ts';
import { keepLater, laterOf } from '../lib/read-order.ts';

export type StoredQuiz = QuizRef & { guideids: number[]; stages: QuizStage[] };

/**
 * Quizzes on this computer and the attempts at them, kept fresh by the `quizAttempt` event (a replay
 * turns an attempt from pending to sent or failed). Commands answer with the App API's Result.
 */
export const useQuizStore = defineStore('quiz', () => {
  const bridge = useBridge();
  const quizzes = ref<StoredQuiz[]>([]);
  const quizzesLoaded = ref(false);
  const listError = ref<AppError | null>(null);
  const attemptsById = ref<Record<string, QuizAttempt>>({});

  bridge.onEvent((event) => {
    if (event.name === 'quizAttempt') keepLater(attemptsById.value, event.payload);
  });

  const attempts = computed(() => attemptsByQuiz(Object.values(attemptsById.value)));

  async function loadQuizzes(): Promise<void> {
    const [list, tried] = await Promise.all([bridge.listQuizzes(), bridge.listQuizAttempts({})]);
    if (list.ok) {
      quizzes.value = [...list.value].sort((a, b) => a.title.localeCompare(b.title));
      listError.value = null;
    } else listError.value = list.error;
    if (tried.ok) attemptsById.value = laterOf(attemptsById.value, tried.value);
    quizzesLoaded.value = true;
  }

  async function loadAttempts(quizid: number): Promise<void> {
    const result = await bridge.listQuizAttempts({ quizid });
    if (result.ok) for (const attempt of result.value) keepLater(attemptsById.value, attempt);
  }

  const open = (quizRevisionid: number): Promise<Result<QuizRevision>> => bridge.getQuiz(quizRevisionid);

  async function submit(input: QuizAttemptInput): Promise<Result<QuizAttempt>> {
    const result = await bridge.submitQuizAttempt(input);
    if (result.ok) keepLater(attemptsById.value, result.value);
    return result;
  }

  /** Another technician works now: their attempts (and the quizzes they may see) are read afresh. */
  function forget(): void {
    quizzes.value = [];
    quizzesLoaded.value = false;
    attemptsById.value = {};
  }

  return { forget, quizzes, quizzesLoaded, listError, attemptsById, attempts, loadQuizzes, loadAttempts, open, submit };
});
