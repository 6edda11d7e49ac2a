import { findStart, type SiteEntry } from '../../api/work-log-api.ts';
import type { WorklogContext } from './context.ts';

/**
 * Entries on the site that a send of this start made (none of them known here), oldest first: its guide,
 * work order, user and one of the times it was sent with, as the site's answer was checked (findStart).
 * A site on its own clock (a real Dozuki start is `{guideid, workorderid}`: it keeps no `timestamp`) records
 * the start when it applied it: looked for only at the sent times, it was never found, sent again after the
 * looks, and the site kept two entries of one session (the second never found either). An entry started after
 * the earliest sent time is taken too when the site shows it keeps its own clock (`kept`, the session's entry,
 * is listed at a time it was never sent with) or, looking for the start itself, when none was made at a sent
 * time; and only while untouched, as a start just made is: someone's work is never taken, nor removed. Not
 * while another session here of the same guide, work order and user waits for its own start's answer: its
 * entry may be the untouched one (taken, two sessions here would share it; removed, its work would go nowhere).
 */
export async function landedEntries(
  ctx: WorklogContext,
  start: { guideid: number; workorderid: string },
  userid: number,
  times: number[],
  /** The session whose start is looked for. */
  sessionId: string,
  kept?: number,
): Promise<SiteEntry[]> {
  const filter = { guideid: start.guideid, workorderid: start.workorderid, userid };
  const found = await findStart(ctx.transport, filter, times);
  const sentTime = found.filter((entry) => times.includes(entry.startedAt));
  const ownClock =
    !ctx.sessions.otherStartOut({ ...filter, id: sessionId }) &&
    (kept === undefined
      ? !sentTime.some((entry) => !ctx.sessions.byEntry(entry.entryid))
      : found.some((entry) => entry.entryid === kept && !times.includes(entry.startedAt)));
  const landed = ownClock ? found.filter((entry) => times.includes(entry.startedAt) || untouched(entry)) : sentTime;
  return landed.filter((entry) => !ctx.sessions.byEntry(entry.entryid));
}

/** Nobody worked on it: just as the start made it. */
export const untouched = (entry: SiteEntry): boolean =>
  entry.status === 'started' && entry.endedAt === null && entry.values.length === 0 && entry.pauseSeconds === 0;
