import type { ChainRef } from '../db/chains.ts';

/** A work session's chain of actions in the outbox, and what holds the guide revision it follows (db/chains.ts). */
export const sessionChain = (sessionId: string): ChainRef<'session'> => ({ type: 'session', id: sessionId });
