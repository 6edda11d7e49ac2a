import type { WorkTransition } from '../../../contract.ts';
import type { OutboxRow } from '../../db/repos/outbox-repo.ts';
import type { ChainMemory } from '../../outbox/action-kind.ts';
import type { WorklogReplayDeps } from './context.ts';

/**
 * How far the chain's last pause (or hand-over) moved: the resume after it moves the pause's length by the
 * difference.
 */
const PAUSE_MOVED = 'pauseMoved';

type Timed = (
  deps: WorklogReplayDeps,
  row: OutboxRow,
  payload: { sessionId: string },
  at: number,
  memory: ChainMemory,
) => void;

/** The session shows the start the site will keep. */
export const startTimed: Timed = (deps, row, payload, at) => {
  if (at !== row.actedAt) follow(deps, payload.sessionId, () => ({ startedAt: at }));
};

/**
 * A transition sent at another time than it was taken: the session shows the times the site will keep
 * (the pause's start, the pause's length after a resume, the end).
 */
export function transitionTimed(transition: WorkTransition): Timed {
  return (deps, row, payload, at, memory) => {
    const pausing = transition === 'pause' || transition === 'suspend';
    if (pausing) memory.set(PAUSE_MOVED, at - row.actedAt);
    if (at === row.actedAt) return;
    follow(deps, payload.sessionId, (session) => {
      if (pausing) return session.pausedAt === row.actedAt ? { pausedAt: at } : null;
      if (transition === 'resume' || transition === 'assume') {
        const moved = at - row.actedAt - (memory.get(PAUSE_MOVED) ?? 0);
        return { pauseSeconds: Math.max(0, session.pauseSeconds + moved) };
      }
      return session.endedAt === row.actedAt ? { endedAt: at } : null;
    });
  };
}

type SessionState = NonNullable<ReturnType<WorklogReplayDeps['sessions']['state']>>;
type Patch = { startedAt?: number; pausedAt?: number; pauseSeconds?: number; endedAt?: number };

function follow(deps: WorklogReplayDeps, sessionId: string, patch: (session: SessionState) => Patch | null): void {
  const session = deps.sessions.state(sessionId);
  if (!session) return;
  const change = patch(session);
  if (change) deps.sessions.update(session.id, change, deps.now());
}
