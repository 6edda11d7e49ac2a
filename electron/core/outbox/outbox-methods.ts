import type { AppApi } from '../../contract.ts';
import { ok } from '../result.ts';
import type { Outbox } from './outbox.ts';

/** The App API of the outbox: what waits, send now, retry and discard. */
export function outboxMethods(
  outbox: Outbox,
): Pick<AppApi, 'getOutbox' | 'flushOutbox' | 'retryAction' | 'discardAction'> {
  return {
    getOutbox: async () => ok(outbox.view()),
    flushOutbox: async () => ok(await outbox.flush()),
    retryAction: async (actionId) => ok(outbox.retry(actionId)),
    discardAction: async (actionId) => ok(outbox.discard(actionId)),
  };
}
