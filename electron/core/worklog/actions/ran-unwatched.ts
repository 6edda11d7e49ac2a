import type { WorkTransition } from '../../../contract.ts';
import { applyClock, type SessionClock } from '../../../shared/work-clock.ts';
import { TRANSITION_ACTIONS } from '../replay/transition.ts';
import type { SessionAccess } from '../session-access.ts';
import { sessionChain } from '../session-chain.ts';
import type { WorkSessionsDeps } from '../work-sessions-deps.ts';

/**
 * The technician's answer about the time their session ran while Fieldguide was closed (worklog/unwatched.ts).
 * Work: it stays counted, nothing is sent. Not work: for each stretch a pause at its start and a resume at its
 * end are queued as theirs, in order, so the site counts the stretches as paused, as this computer does. A second
 * answer (a glove's bounce) finds nothing left to answer and changes nothing.
 */
export function answerRanUnwatched(
  deps: WorkSessionsDeps,
  access: SessionAccess,
  sessionId: string,
  work: boolean,
): void {
  const me = deps.technician();
  deps.store.transaction(() => {
    const session = access.state(sessionId);
    access.stillMine(session);
    const ran = deps.store.sessions.ranUnwatched.get(sessionId);
    if (!ran) return;
    deps.store.sessions.ranUnwatched.set(sessionId, null);
    if (work || session.status !== 'started' || session.pausedAt !== null) return;
    let clock: SessionClock & { id: string } = session;
    for (const stretch of ran.stretches) {
      // Never before what the session did last (an action in the minute before Fieldguide closed).
      const from = access.after(clock, stretch.from);
      if (stretch.to <= from) continue;
      for (const [transition, at] of [
        ['pause', from],
        ['resume', stretch.to],
      ] as [WorkTransition, number][]) {
        clock = { ...clock, ...applyClock(clock, transition, at) };
        deps.store.sessions.update(sessionId, clock, deps.now());
        deps.outbox.enqueue(
          TRANSITION_ACTIONS[transition],
          { sessionId },
          { chain: sessionChain(sessionId), actedAt: at, technician: me.id },
        );
      }
    }
  });
}
