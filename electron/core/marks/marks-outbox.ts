import type { Store } from '../db/store.ts';
import type { OutboxFeature } from '../outbox/registry.ts';
import { completedAction, favoriteAction, MARK_CHAINS, type MarksReplayDeps } from './mark-actions.ts';

/** The marks' kinds of action, registered with the outbox (services.ts). */
export function marksOutbox(deps: { store: Store }): OutboxFeature<MarksReplayDeps> {
  return {
    chains: Object.values(MARK_CHAINS),
    actions: [favoriteAction, completedAction],
    deps: { guides: deps.store.guides },
  };
}
