import { isEnded } from '../../shared/worklog.ts';
import type { SiteEntry } from '../api/work-log-api.ts';
import {
  contextOf,
  isQuiet,
  quietSessions,
  type OnSite,
  type SiteLists,
  type SiteLookDeps,
  type Technician,
} from './look-context.ts';
import { SITE_DECIDED } from '../../shared/site-decided.ts';
import { followOwnEntry } from './replay/adopt.ts';
import { recordDecision, siteDecision, type DecisionContext } from './replay/follow-site.ts';
import { handedBackBy, newerOnSite, recordHandedBack } from './handed-back.ts';

const OPEN = ['started', 'paused', 'suspended'] as const;

/**
 * How long a session a colleague took over is looked at, its card unread: two weeks after this computer learned
 * it, it is the colleague's for good here. A hand-back after that shows among the Sessions list's handed-over
 * rows, whose Take it over reads the site's entry first (site-sessions.ts).
 */
export const TAKEN_OVER_LOOKED_AT_SECONDS = 14 * 24 * 3600;

/**
 * The technician's sessions taken over on the site by a colleague, as the site has them now. A walk: one taken
 * over here stayed "Taken over" once the colleague handed it back (suspended it again, for anyone to take), or
 * once its technician took it back on another computer; nothing here looked at it again. Each sync now looks,
 * only while one such session is open here, in the two lists the other looks read (each asked once a sync):
 * listed as handed over again, by whoever had it, it is this technician's again to take back, as the site has it,
 * with who had it and the values they changed (handed-back.ts); listed among their own entries (taken back
 * elsewhere) it is theirs again as the site has it: running, paused, handed over, or ended. Listed in neither,
 * the colleague still has it, and nothing changes. Nothing is sent: the site already has it.
 */
export async function lookAtTakenOver(deps: SiteLookDeps, technician: Technician, lists: SiteLists): Promise<void> {
  const taken = quietSessions(deps.store, technician, OPEN, true).filter((session) => lookedAt(deps, session.id));
  if (taken.length === 0) return;
  const [handedOver, theirs] = [await lists.handedOver(), await lists.theirs()];
  const back = new Map(handedOver.entries.filter((e) => e.status === 'suspended').map((e) => [e.entryid, e]));
  const own = new Map(theirs.entries.map((entry) => [entry.entryid, entry]));
  const ctx = contextOf(deps, technician, lists.transport);
  for (const session of taken) {
    const found = await foundOf(ctx, technician, session, own.get(session.entryid) ?? back.get(session.entryid));
    if (!found) continue;
    const recorded = ctx.transaction(() => {
      if (!isQuiet(deps.store, technician, session.id, OPEN, true)) return false;
      // Theirs again, on this computer as on the site: the state below is followed as one of theirs.
      ctx.sessions.update(session.id, { userid: technician.userid }, ctx.now());
      if (found.kind === 'ended') recordDecision(ctx, session, found.decision, []);
      else if (found.kind === 'own') followOwnEntry(ctx, session, found.entry);
      else recordHandedBack(ctx, session, found.by, found.entry);
      if (found.kind !== 'ended') sinceThen(ctx, session.id, found);
      return true;
    });
    if (recorded) deps.changed(session.id, technician.id);
  }
}

/**
 * Whether a session taken over by a colleague is still looked at: its "Taken over" card unread, and learned less
 * than two weeks ago. Read ("Understood"), it is theirs, and the technician said so: the two lists were asked at
 * every sync for as long as it stayed here, for ever once the colleague finished it (an entry only they may read).
 * A session taken over with no such card (none is known to be made) is looked at as before.
 */
function lookedAt(deps: SiteLookDeps, sessionId: string): boolean {
  const card = deps.store.conflicts.takenOverOf(sessionId);
  return card === undefined || (!card.settled && deps.now() - card.createdAt < TAKEN_OVER_LOOKED_AT_SECONDS);
}

/**
 * The open record that said it was taken over says it came back too: the card, still to settle, said only
 * "Taken over … by another technician", of a session the Sessions list now shows as theirs.
 */
function sinceThen(ctx: DecisionContext, sessionId: string, found: Exclude<Found, { kind: 'ended' }>): void {
  const open = ctx.conflicts.openOfSession(sessionId, ctx.technician);
  if (!open?.label.startsWith(SITE_DECIDED.takenOver)) return;
  const back =
    found.kind === 'own'
      ? 'you took it back on another computer'
      : `${found.by.name ?? 'whoever had it'} handed it back to you on the site`;
  ctx.amendConflict(open.id, { mine: open.mine, theirs: open.theirs, message: `${open.message} Since then, ${back}.` });
}

type Found =
  | { kind: 'ended'; decision: Awaited<ReturnType<typeof siteDecision>> }
  | { kind: 'own'; entry: SiteEntry }
  | { kind: 'back'; entry: SiteEntry; by: Awaited<ReturnType<typeof handedBackBy>> };

/** What the site's listed entry says of a session taken over here: null while a colleague still has it. */
async function foundOf(
  ctx: DecisionContext,
  technician: Technician,
  session: OnSite,
  entry: SiteEntry | undefined,
): Promise<Found | null> {
  if (!entry || !newerOnSite(entry, session)) return null;
  if (entry.userid === technician.userid)
    return isEnded(entry.status)
      ? { kind: 'ended', decision: await siteDecision(ctx, technician.userid, entry) }
      : { kind: 'own', entry };
  return { kind: 'back', entry, by: await handedBackBy(ctx, entry) };
}
