import type { ChainRef } from '../db/chains.ts';
import type { Store } from '../db/store.ts';
import type { EventHub } from '../events.ts';
import type { OutboxFeature } from '../outbox/registry.ts';
import { quizAttemptAction, type QuizReplayDeps } from './quiz-attempt-action.ts';

/** A quiz attempt's chain in the outbox: one action, the attempt sent. */
export const quizChain = (attemptId: string): ChainRef<'quiz'> => ({ type: 'quiz', id: attemptId });

/** The quiz's kinds of action, registered with the outbox (services.ts). */
export function quizOutbox(deps: { store: Store; events: EventHub }): OutboxFeature<QuizReplayDeps> {
  const { quizzes } = deps.store;
  return {
    chains: ['quiz'],
    actions: [quizAttemptAction],
    deps: { quizzes },
    // The renderer shows the current technician's attempts only.
    moved: (chain, current) => {
      const attempt = quizzes.attempt(chain.id);
      if (attempt && current !== null && quizzes.technicianOf(chain.id) === current)
        deps.events.emit('quizAttempt', attempt);
    },
  };
}
