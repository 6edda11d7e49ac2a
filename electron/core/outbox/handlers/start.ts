import { findEntries, startEntry } from '../../api/work-log-api.ts';
import type { z } from 'zod';
import { adoptRevision } from '../adopt.ts';
import { goneMessage, guideGone } from '../guide-gone.ts';
import type { startPayload } from '../payloads.ts';
import { missingHere, type Handler } from '../replay-context.ts';

/**
 * `POST /work_log` is not idempotent: when an earlier attempt may have landed (sent, no answer), look
 * the entry up first (same guide, work order and user, started when the technician acted) and adopt it.
 */
export const replayStart: Handler<z.infer<typeof startPayload>> = async (ctx, row, payload) => {
  const session = ctx.sessions.state(payload.sessionId);
  if (!session) return missingHere('work session');
  if (session.entryid !== null) {
    ctx.outbox.remove(row.id);
    return { type: 'done' };
  }
  if (row.unknownOutcome) {
    const found = await findEntries(ctx.transport, { guideid: payload.guideid, workorderid: payload.workorderid, userid: session.userid });
    const times = new Set([row.actedAt, ...(payload.triedAt ?? [])]);
    const landed = found.find((entry) => times.has(entry.startedAt) && !ctx.sessions.byEntry(entry.entryid));
    if (landed) {
      ctx.transaction(() => {
        adoptRevision(ctx, session.id, landed);
        ctx.outbox.remove(row.id);
      });
      return { type: 'done' };
    }
  }
  let entry;
  try {
    entry = await startEntry(ctx.transport, {
      guideid: payload.guideid,
      workorderid: payload.workorderid,
      timestamp: row.actedAt,
      ...(payload.stepid ? { stepid: payload.stepid } : {}),
    });
  } catch (error) {
    if (await guideGone(ctx, payload.guideid, error)) return { type: 'failed', message: goneMessage(ctx, session.id) };
    throw error;
  }
  ctx.transaction(() => {
    adoptRevision(ctx, session.id, entry);
    ctx.outbox.remove(row.id);
  });
  return { type: 'done' };
};
