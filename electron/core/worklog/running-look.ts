import { isEnded } from '../../shared/worklog.ts';
import {
  contextOf,
  isQuiet,
  quietSessions,
  type OnSite,
  type SiteLists,
  type SiteLookDeps,
  type Technician,
} from './look-context.ts';
import type { SiteEntry } from '../api/work-log-api.ts';
import type { SessionState } from '../db/repos/sessions-repo.ts';
import { newerOnSite } from './handed-back.ts';
import { followOwnEntry } from './replay/adopt.ts';
import { recordDecision, siteDecision, type DecisionContext } from './replay/follow-site.ts';
import { hasEntryid, readSite, type Found } from './handed-over-look.ts';
import { recordRemoved } from './removed-on-site.ts';

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
 * replay shows what disagrees as a conflict. One not listed is read (handed-over-look.ts readSite): handed over on
 * another computer and taken by a colleague (a read refused: someone else's), removed, or theirs still (older than
 * 200 newer of theirs); one listed as this computer last knew it stays as it is.
 */
export async function lookAtRunning(deps: SiteLookDeps, technician: Technician, lists: SiteLists): Promise<void> {
  const quiet = quietSessions(deps.store, technician, RUNNING);
  if (quiet.length === 0) return;
  const { entries, unreadable } = await lists.theirs();
  const listed = new Map(entries.map((entry) => [entry.entryid, entry]));
  // Listed in a shape this version does not read: theirs still, as far as can be told.
  const odd = new Set(unreadable.filter(hasEntryid).map((entry) => entry.entryid));
  const ctx = contextOf(deps, technician, lists.transport);
  for (const session of quiet) {
    if (odd.has(session.entryid)) continue;
    const entry = listed.get(session.entryid);
    // Not among their entries: handed over on another computer and taken by a colleague (perhaps finished since),
    // removed on the site, or older than 200 of theirs. It said "In progress" here, its time counting, until
    // they acted and the site refused: one read says which, as for a session handed over here.
    const found = entry ? await ofListed(ctx, session, entry) : await readSite(ctx, session, lists.signal);
    if (!found || (found.kind === 'own' && !unfollowed(found.entry, session))) continue;
    const recorded = ctx.transaction(() => {
      // Something done here meanwhile goes to the site, and the replay learns the site's from its answer; one
      // answered since the list was read is newer than the list.
      if (!isQuiet(deps.store, technician, session.id, RUNNING)) return false;
      if (found.kind === 'own' && !unfollowed(found.entry, deps.store.sessions.state(session.id)!)) return false;
      if (found.kind === 'decided') recordDecision(ctx, session, found.decision, []);
      else if (found.kind === 'own') followOwnEntry(ctx, session, found.entry);
      else if (found.kind === 'removed') recordRemoved(ctx, session);
      return true;
    });
    if (recorded) deps.changed(session.id, technician.id);
  }
}

/** A session listed among the technician's entries: ended there, or theirs as the site has it. */
const ofListed = async (ctx: DecisionContext, session: OnSite, entry: SiteEntry): Promise<Found> =>
  isEnded(entry.status)
    ? { kind: 'decided', decision: await siteDecision(ctx, session.userid, entry) }
    : { kind: 'own', entry };

/**
 * Whether the site's entry has a state of the session this computer has not followed: a later revision, or the
 * same revision in another state (a value sent from here took the revision of its answer, after a pause made
 * on another computer: the pause was never followed).
 */
const unfollowed = (entry: SiteEntry, session: SessionState): boolean =>
  newerOnSite(entry, session) ||
  (entry.revisionid !== null && entry.revisionid === session.serverRevisionid && entry.status !== session.status);
