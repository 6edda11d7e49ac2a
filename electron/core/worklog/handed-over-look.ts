import type { HandedBack } from '../../contract.ts';
import { classify } from '../api/failure.ts';
import { getEntry, type SiteEntry } from '../api/work-log-api.ts';
import {
  contextOf,
  isQuiet,
  quietSessions,
  type OnSite,
  type SiteLists,
  type SiteLookDeps,
  type Technician,
} from './look-context.ts';
import { followOwnEntry } from './replay/adopt.ts';
import {
  recordDecision,
  siteDecision,
  siteTookIt,
  takenByUnnamed,
  type DecisionContext,
  type SiteDecision,
} from './replay/follow-site.ts';
import { handedBackBy, newerOnSite, recordHandedBack } from './handed-back.ts';
import { recordRemoved } from './removed-on-site.ts';

const HANDED_OVER = ['suspended'] as const;

/**
 * The technician's sessions handed over here, as the site has them now. A walk: a session handed over here and
 * taken over on the site from another computer stayed "Handed over", with "Take it back", for as long as
 * nothing of it was queued here, since only the answer to something sent told the replay (follow-site.ts).
 * Each sync now looks, for the technician whose sign-in it uses and at their sessions only (a read under
 * anyone else's sign-in says nothing of theirs): one list of the entries handed over on the site, and a read
 * of each of theirs gone from it. One the site no longer lets them read is someone else's now (the site shows
 * another's entry only while it is handed over); one it shows them ended, or someone else's, is recorded as the
 * replay records it. One they took back on another computer (running or paused there) is theirs again here, as
 * the site has it, with nothing queued: it stayed "Handed over", and Take it back sent an assume of work they
 * already had. One the site no longer has (a 404: deleted there) is said to be removed on the site and kept
 * here read-only with its values, nothing more sent for it. One still listed, handed back by a colleague who
 * took it (theirs on the site, at a later revision), says who had it and the values they changed, and takes the
 * site's (handed-back.ts): Take it back then does what it says. Listed at a later revision as their own (handed
 * over again on another computer), it takes the site's.
 */
export async function lookAtHandedOver(deps: SiteLookDeps, technician: Technician, lists: SiteLists): Promise<void> {
  const idle = quietSessions(deps.store, technician, HANDED_OVER);
  // Nothing handed over and quiet here: no request at all.
  if (idle.length === 0) return;
  const { entries, unreadable } = await lists.handedOver();
  const listed = new Map(entries.filter((e) => e.status === 'suspended').map((entry) => [entry.entryid, entry]));
  // Listed as handed over in a shape this version does not read: still handed over, as far as can be told.
  const odd = new Set(unreadable.filter(hasEntryid).map((entry) => entry.entryid));
  const ctx = contextOf(deps, technician, lists.transport);
  for (const session of idle) {
    if (odd.has(session.entryid)) continue;
    const entry = listed.get(session.entryid);
    const found = entry ? await stillListed(ctx, session, entry) : await readSite(ctx, session, lists.signal);
    if (!found) continue;
    const recorded = ctx.transaction(() => {
      // Looked at again: something queued meanwhile (Take it back pressed during the look) goes to the
      // site, and the replay learns the site's decision from its answer, with who by name.
      if (!isQuiet(deps.store, technician, session.id, HANDED_OVER)) return false;
      if (found.kind === 'decided') recordDecision(ctx, session, found.decision, []);
      else if (found.kind === 'own') followOwnEntry(ctx, session, found.entry);
      else if (found.kind === 'back') recordHandedBack(ctx, session, found.by, found.entry);
      else recordRemoved(ctx, session);
      return true;
    });
    if (recorded) deps.changed(session.id, technician.id);
  }
}

/** What the site has of a session handed over here, as this computer follows it. */
export type Found =
  | { kind: 'decided'; decision: SiteDecision }
  | { kind: 'own'; entry: SiteEntry }
  | { kind: 'back'; entry: SiteEntry; by: Omit<HandedBack, 'changed'> }
  | { kind: 'removed' };

/**
 * A session the site still lists as handed over, when the site has something newer of it: handed back by whoever
 * took it over (theirs on the site), or handed over again by its own technician on another computer. Null when
 * nothing is new (the list answers as it did the last time).
 */
async function stillListed(ctx: DecisionContext, session: OnSite, entry: SiteEntry): Promise<Found | null> {
  if (!newerOnSite(entry, session)) return null;
  if (entry.userid === session.userid) return { kind: 'own', entry };
  return { kind: 'back', entry, by: await handedBackBy(ctx, entry) };
}

/**
 * What the site has of a session gone from its list of handed-over entries, or null when there is nothing
 * this computer should follow: still handed over (listed since).
 */
export async function readSite(
  ctx: DecisionContext,
  session: OnSite,
  signal: AbortSignal | undefined,
): Promise<Found | null> {
  try {
    const entry = await getEntry(ctx.transport, session.entryid, signal);
    if (siteTookIt(entry, session.userid))
      return { kind: 'decided', decision: await siteDecision(ctx, session.userid, entry) };
    // Theirs again, taken back on another computer: followed as the site has it, running or paused there.
    return entry.status === 'suspended' ? null : { kind: 'own', entry };
  } catch (error) {
    const failure = classify(error);
    // The site refuses a read of another's entry that is not handed over: it is someone else's now.
    if (failure.kind === 'forbidden') return { kind: 'decided', decision: takenByUnnamed };
    // Gone from the site (deleted there): kept here read-only, with its values, and nothing more sent for it.
    if (failure.kind === 'gone') return { kind: 'removed' };
    throw error;
  }
}

export const hasEntryid = (listed: unknown): listed is { entryid: number } =>
  typeof listed === 'object' && listed !== null && typeof (listed as { entryid?: unknown }).entryid === 'number';
