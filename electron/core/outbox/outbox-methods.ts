import { z } from 'zod';
import type { OutboxApi } from '../../contract.ts';
import { id } from '../method-inputs.ts';
import { defineMethods } from '../methods.ts';
import type { Outbox } from './outbox.ts';

/** The App API of the outbox: what waits, send now, retry and discard. */
export const outboxMethods = defineMethods<keyof OutboxApi, Outbox>({
  getOutbox: { input: z.tuple([]), run: (outbox) => outbox.view() },
  flushOutbox: { input: z.tuple([]), run: (outbox) => outbox.flush() },
  retryAction: { input: z.tuple([id]), run: (outbox, actionId) => outbox.retry(actionId) },
  discardAction: { input: z.tuple([id]), run: (outbox, actionId) => outbox.discard(actionId) },
});
