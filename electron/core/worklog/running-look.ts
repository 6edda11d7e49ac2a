import { isEnded } from '../../shared/worklog.ts';
import {
  contextOf,
  isQuiet,
  quietSessions,
  type SiteLists,
  type SiteLookDeps,
  type Technician,
} from './look-context.ts';
import type { SiteEntry } from '../api/work-log-api.ts';
import type { SessionState } from '../db/repos/sessions-repo.ts';
import { newerOnSite } from './handed-back.ts';
import { followOwnEntry } from './replay/adopt.ts';
import { recordDecision, siteDecision } from './replay/follow-site.ts';

const RUNNING = ['started', 'paused'] as const;

/**
 * The technician's running sessions, as the site has them now. A session running or paused here, cancelled or
 * finished on the site by someone else (a supervisor) with nothing of it queued here, was learned only from the
 * answer to the technician's next action: it stayed "In progress", its time counting on. Each sync now asks the
 * site once for the technician's own newest entries (GET /work_log?userid=, at most 200, the list a lost start is
 * looked for in), and only while one of their sessions runs quietly here: nothing when none does, never one
 * request per session, never of anyone else's entries. Each of theirs the site lists as ended is recorded as the
 * replay records it (follow-site.ts: "Cancelled on the site", who and when). One listed at a later revision,
 * paused, resumed or handed over on another computer (only ends were followed: it stayed "In progress" here, its
 * time counting, while it was paused there), takes the site's state, clock and values as one of theirs
 * (adopt.ts followOwnEntry). Something of it queued here is never overwritten: it goes to the site, and the
 * replay shows what disagrees as a conflict. One not listed (older than 200 newer of theirs, or removed) tells
 * nothing here; one listed as this computer last knew it stays as it is.
 */
export async function lookAtRunning(deps: SiteLookDeps, technician: Technician, lists: SiteLists): Promise<void> {
  const quiet = quietSessions(deps.store, technician, RUNNING);
  if (quiet.length === 0) return;
  const { entries } = await lists.theirs();
  const listed = new Map(entries.map((entry) => [entry.entryid, entry]));
  const ctx = contextOf(deps, technician, lists.transport);
  for (const session of quiet) {
    const entry = listed.get(session.entryid);
    if (!entry || (!isEnded(entry.status) && !unfollowed(entry, session))) continue;
    const decision = isEnded(entry.status) ? await siteDecision(ctx, session.userid, entry) : null;
    const recorded = ctx.transaction(() => {
      // Something done here meanwhile goes to the site, and the replay learns the site's from its answer; one
      // answered since the list was read is newer than the list.
      if (!isQuiet(deps.store, technician, session.id, RUNNING)) return false;
      if (!decision && !unfollowed(entry, deps.store.sessions.state(session.id)!)) return false;
      if (decision) recordDecision(ctx, session, decision, []);
      else followOwnEntry(ctx, session, entry);
      return true;
    });
    if (recorded) deps.changed(session.id, technician.id);
  }
}

/**
 * Whether the site's entry has a state of the session this computer has not followed: a later revision, or the
 * same revision in another state (a value sent from here took the revision of its answer, after a pause made
 * on another computer: the pause was never followed).
 */
const unfollowed = (entry: SiteEntry, session: SessionState): boolean =>
  newerOnSite(entry, session) ||
  (entry.revisionid !== null && entry.revisionid === session.serverRevisionid && entry.status !== session.status);
