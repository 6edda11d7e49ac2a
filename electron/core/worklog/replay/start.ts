import type { z } from 'zod';
import { startEntry } from '../../api/work-log-api.ts';
import { adoptRevision } from './adopt.ts';
import { missingHere, worklogAction, type WorklogHandler } from './context.ts';
import { checkForDoubles, lookLater, nextLook } from './doubles.ts';
import { goneMessage, guideGone } from './guide-gone.ts';
import { landedEntries } from './landed.ts';
import { startPayload } from './payloads.ts';
import { startTimed } from './timing.ts';

type StartPayload = z.infer<typeof startPayload>;

/** Said with a start the site refused for good. */
const DISCARD_ENDS_IT = 'Discard it to stop sending the rest of this session.';

/**
 * `POST /work_log` is not idempotent. When an earlier attempt may have landed (sent, no answer), the
 * entry is looked for first (same guide, work order and user, started at a time it was sent with) and
 * adopted; one not found yet is looked for again later and longer (doubles.ts) before the start is sent
 * again, since a slow site may still be applying it. Once settled so, the site is checked for a second
 * entry for a while, and one found is removed and the technician told (doubles-check.ts).
 */
const replayStart: WorklogHandler<StartPayload> = async (ctx, row, payload) => {
  const session = ctx.sessions.state(payload.sessionId);
  if (!session) return missingHere('work session');
  if (session.entryid !== null) {
    ctx.outbox.remove(row.id);
    return { type: 'done' };
  }
  const times = [...new Set([row.actedAt, ...(payload.triedAt ?? [])])];
  const check = { of: 'start', sessionId: session.id, times, since: ctx.nowMs() } as const;
  if (row.unknownOutcome) {
    const [landed, ...more] = await landedEntries(ctx, payload, session.userid, times, session.id);
    if (landed) {
      ctx.transaction(() => {
        adoptRevision(ctx, session.id, landed);
        // It may have landed with a time an earlier try was sent with: the session shows the site's.
        ctx.sessions.update(session.id, { startedAt: landed.startedAt }, ctx.now());
        ctx.outbox.remove(row.id);
        checkForDoubles(ctx, check, more.length > 0);
      });
      return { type: 'done' };
    }
    const look = nextLook(ctx, row);
    if (look !== null) return lookLater(look, 'the start of this session');
    ctx.transaction(() => ctx.outbox.sendingAgain(row.id));
  }
  let entry;
  try {
    entry = await startEntry(
      ctx.transport,
      {
        guideid: payload.guideid,
        workorderid: payload.workorderid,
        timestamp: row.actedAt,
        ...(payload.stepid ? { stepid: payload.stepid } : {}),
      },
      session.userid,
    );
  } catch (error) {
    // What Discard then does is said: it ends the session's sending (discarded.ts), not this action's alone.
    if (await guideGone(ctx, payload.guideid, error))
      return { type: 'failed', message: `${goneMessage(ctx, session.id)} ${DISCARD_ENDS_IT}` };
    throw error;
  }
  ctx.transaction(() => {
    adoptRevision(ctx, session.id, entry);
    ctx.outbox.remove(row.id);
    // Sent again after an attempt with no answer: that one may still land.
    if (row.unknownOutcome) checkForDoubles(ctx, check);
  });
  return { type: 'done' };
};

/** A session's start: the entry made on the site; sent again after no answer, it keeps the times it was tried with. */
export const startAction = worklogAction('start', startPayload, replayStart, {
  describe: () => 'Start',
  timed: startTimed,
  triedAgain: (payload, triedAt) => ({ ...payload, triedAt: [...(payload.triedAt ?? []), triedAt] }),
});
