import { ApiError } from '../../api/errors.ts';
import { findEntries, type SiteEntry } from '../../api/work-log-api.ts';
import type { WorklogContext } from './context.ts';

type Start = { guideid: number; workorderid: string };

/**
 * Entries on the site that a send of this start made (none of them known here), oldest first. What the
 * site listed is checked again here: a site that ignores one of the list's filters lists others' entries
 * too, and a colleague's start of the same work order in the same second is theirs, never to be taken
 * over or removed as a second copy of this one. An entry the list holds that cannot be read may be this
 * start, unless what can be read of it says otherwise: then nothing is decided and the start waits (sent
 * again it would make a second session), as when the whole list could not be read.
 */
export async function landedEntries(
  ctx: WorklogContext,
  start: Start,
  userid: number,
  times: number[],
): Promise<SiteEntry[]> {
  const filter = { guideid: start.guideid, workorderid: start.workorderid, userid };
  const { entries, unreadable } = await findEntries(ctx.transport, filter);
  if (unreadable.some((listed) => mayBeThis(listed, start, userid, times))) {
    throw new ApiError(
      'bad_response',
      'GET /work_log',
      `The site's work log lists an entry for work order ${start.workorderid} that Fieldguide cannot read: ` +
        'whether this start reached the site cannot be told, so it is not sent again yet.',
    );
  }
  return entries
    .filter(
      (entry) =>
        entry.guideid === start.guideid &&
        entry.workorderid === start.workorderid &&
        entry.userid === userid &&
        times.includes(entry.startedAt) &&
        !ctx.sessions.byEntry(entry.entryid),
    )
    .sort((a, b) => a.entryid - b.entryid);
}

/** Whether an entry it cannot read may still be this start: nothing it can read of it says otherwise. */
function mayBeThis(listed: unknown, start: Start, userid: number, times: number[]): boolean {
  if (typeof listed !== 'object' || listed === null) return true;
  const entry = listed as Record<string, unknown>;
  const other = (value: unknown, ours: string) =>
    (typeof value === 'number' || typeof value === 'string') && String(value) !== ours;
  const otherTime = typeof entry.starttime === 'number' && !times.includes(entry.starttime);
  return !(
    other(entry.guideid, String(start.guideid)) ||
    other(entry.workorderid, start.workorderid) ||
    other(entry.userid, String(userid)) ||
    otherTime
  );
}
