import { isEnded } from '../../shared/worklog.ts';
import {
  contextOf,
  isQuiet,
  quietSessions,
  type SiteLists,
  type SiteLookDeps,
  type Technician,
} from './look-context.ts';
import { recordDecision, siteDecision } from './replay/follow-site.ts';

const RUNNING = ['started', 'paused'] as const;

/**
 * The technician's running sessions, as the site has them now. A session running or paused here, cancelled or
 * finished on the site by someone else (a supervisor) with nothing of it queued here, was learned only from the
 * answer to the technician's next action: it stayed "In progress", its time counting on. Each sync now asks the
 * site once for the technician's own newest entries (GET /work_log?userid=, at most 200, the list a lost start is
 * looked for in), and only while one of their sessions runs quietly here: nothing when none does, never one
 * request per session, never of anyone else's entries. Each of theirs the site lists as ended is recorded as the
 * replay records it (follow-site.ts: "Cancelled on the site", who and when). One not listed (older than 200
 * newer of theirs, or removed) tells nothing here; one listed running stays as it is.
 */
export async function lookAtRunning(deps: SiteLookDeps, technician: Technician, lists: SiteLists): Promise<void> {
  const quiet = quietSessions(deps.store, technician, RUNNING);
  if (quiet.length === 0) return;
  const { entries } = await lists.theirs();
  const listed = new Map(entries.map((entry) => [entry.entryid, entry]));
  const ctx = contextOf(deps, technician, lists.transport);
  for (const session of quiet) {
    const entry = listed.get(session.entryid);
    if (!entry || !isEnded(entry.status)) continue;
    const decision = await siteDecision(ctx, session.userid, entry);
    const recorded = ctx.transaction(() => {
      // Something done here meanwhile goes to the site, and the replay learns the end from its answer.
      if (!isQuiet(deps.store, technician, session.id, RUNNING)) return false;
      recordDecision(ctx, session, decision, []);
      return true;
    });
    if (recorded) deps.changed(session.id, technician.id);
  }
}
