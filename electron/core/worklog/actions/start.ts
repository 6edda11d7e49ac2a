import { randomUUID } from 'node:crypto';
import type { StartSessionInput } from '../../../contract.ts';
import { pinKey } from '../../db/chains.ts';
import { AppFailure } from '../../result.ts';
import { startAction } from '../replay/start.ts';
import { sessionChain } from '../session-chain.ts';
import type { WorkSessionsDeps } from '../work-sessions-deps.ts';

/** Starts a session on a stored guide, and queues its start: answers the new session's id. */
export function startSession(deps: WorkSessionsDeps, input: StartSessionInput): string {
  const guide = deps.readable(input.guideid) ? deps.store.guides.getDetail(input.guideid) : undefined;
  if (!guide)
    throw new AppFailure(
      'not_found',
      'This guide is not stored on this computer: sync it before starting work on it.',
      { guideid: input.guideid },
    );
  if (input.stepid !== undefined && !guide.steps.some((s) => s.stepid === input.stepid)) {
    throw new AppFailure('invalid_input', `Step ${input.stepid} is not a step of "${guide.title}".`);
  }
  const id = randomUUID();
  const stamp = deps.clock.stamp();
  const [at, me] = [stamp.at, deps.technician()];
  deps.store.transaction(() => {
    deps.store.sessions.insert({
      id,
      entryid: null,
      guideid: guide.guideid,
      guideRevisionid: guide.revisionid,
      guideTitle: guide.title,
      workorderid: input.workorderid.trim(),
      userid: me.userid,
      technician: me.id,
      status: 'started',
      serverRevisionid: null,
      startedAt: at,
      pausedAt: null,
      pauseSeconds: 0,
      activeStepid: input.stepid ?? guide.steps[0]?.stepid ?? null,
      now: deps.now(),
    });
    deps.store.guides.pin(guide.guideid, guide.revisionid, pinKey(sessionChain(id)));
    const payload = {
      sessionId: id,
      guideid: guide.guideid,
      workorderid: input.workorderid.trim(),
      ...(input.stepid ? { stepid: input.stepid } : {}),
    };
    deps.outbox.enqueue(startAction, payload, {
      chain: sessionChain(id),
      actedAt: at,
      technician: me.id,
      stamp,
    });
  });
  return id;
}
