import { classify } from '../../api/failure.ts';
import { entryDeleted } from '../../api/work-log-api.ts';
import type { OutboxRow } from '../../db/repos/outbox-repo.ts';
import { recordRemoved } from '../removed-on-site.ts';
import type { WorklogContext } from './context.ts';

/**
 * A walk: an admin deleted on the site the entry of a session running here while its actions waited (a value
 * saved offline, a Pause). Each answered 404 "No such work-log entry", held as failed for ever ("Change it and
 * save again", Retry), the session "In progress · 1 action failed". A 404 for the session's own entry, confirmed
 * by a read of it under the technician's own sign-in (not a site without the work log: entryDeleted), now makes
 * it removed on the site, as a sync's look does for one handed over (removed-on-site.ts): kept here read-only
 * with its values, what was queued of it in the one record, nothing more sent for it. True when it did.
 */
export async function entryGone(
  ctx: WorklogContext,
  row: OutboxRow,
  session: { id: string; guideid: number; entryid: number },
  error: unknown,
): Promise<boolean> {
  const failure = classify(error);
  if (failure.kind !== 'gone' || failure.resource.kind !== 'work-log') return false;
  if (failure.resource.entryid !== session.entryid) return false;
  if (ctx.sessions.technicianOf(session.id) !== ctx.technician) return false;
  if (!(await entryDeleted(ctx.transport, session.entryid))) return false;
  ctx.transaction(() => {
    const queued = ctx.outbox.all(ctx.technician).filter((r) => r.chain === row.chain && r.id >= row.id);
    recordRemoved(ctx, session, queued);
  });
  return true;
}
