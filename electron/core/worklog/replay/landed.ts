import { findStart, type SiteEntry } from '../../api/work-log-api.ts';
import type { WorklogContext } from './context.ts';

/**
 * Entries on the site that a send of this start made (none of them known here), oldest first: its guide,
 * work order, user and one of the times it was sent with, as the site's answer was checked (findStart).
 */
export async function landedEntries(
  ctx: WorklogContext,
  start: { guideid: number; workorderid: string },
  userid: number,
  times: number[],
): Promise<SiteEntry[]> {
  const filter = { guideid: start.guideid, workorderid: start.workorderid, userid };
  const found = await findStart(ctx.transport, filter, times);
  return found.filter((entry) => !ctx.sessions.byEntry(entry.entryid));
}
