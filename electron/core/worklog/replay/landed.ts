import { findEntries, type SiteEntry } from '../../api/work-log-api.ts';
import type { WorklogContext } from './context.ts';

/** Entries on the site that a send of this start made (none of them known here), oldest first. */
export async function landedEntries(
  ctx: WorklogContext,
  start: { guideid: number; workorderid: string },
  userid: number,
  times: number[],
): Promise<SiteEntry[]> {
  const found = await findEntries(ctx.transport, { guideid: start.guideid, workorderid: start.workorderid, userid });
  return found
    .filter((entry) => times.includes(entry.startedAt) && !ctx.sessions.byEntry(entry.entryid))
    .sort((a, b) => a.entryid - b.entryid);
}
