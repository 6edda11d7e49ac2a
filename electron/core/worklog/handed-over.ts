import { z } from 'zod';
import type { HandedOverList, HandedOverSession, TakenHere } from '../../contract.ts';
import { asAppFailure } from '../api/app-failure.ts';
import type { ApiTransport } from '../api/transport.ts';
import { userName } from '../api/users-api.ts';
import type { SiteEntry } from '../api/work-log-api.ts';
import type { Store } from '../db/store.ts';
import { AppFailure } from '../result.ts';
import { GUIDES_ASKED, suspendedAcross, type SuspendedAcross } from './suspended-lists.ts';

// Issue 28: what others handed over, for the taker's Sessions list; kept per technician for offline use.

const handedOverSession = z.object({
  entryid: z.number().int(),
  guideid: z.number().int(),
  guideTitle: z.string(),
  workorderid: z.string(),
  userid: z.number().int(),
  handedOverBy: z.string().nullable(),
  handedOverAt: z.number().nullable(),
  startedAt: z.number(),
});
const learned = z.object({
  learnedAt: z.number(),
  sessions: z.array(handedOverSession),
  // Stored from this version on; a list learned before said none.
  unreadable: z.number().int().nonnegative().default(0),
  byGuide: z.object({ asked: z.number(), known: z.number() }).nullable().default(null),
});

const takenHere = z.array(
  z.object({ workorderid: z.string(), guideTitle: z.string(), takenBy: z.string(), at: z.number() }),
);
const takenKey = (technicianId: number) => `worklog.takenHere.${technicianId}`;
/** How many sessions taken over here a technician is told of (the newest). */
const TAKEN_KEPT = 20;

/**
 * Keeps, for the technician a session was taken from on this computer, who took it and when: the session
 * is the taker's from then on, and its first technician found it gone from their list without a word.
 */
export function noteTakenHere(store: Store, from: number, taken: TakenHere): void {
  const before = store.settings.get(takenKey(from), takenHere) ?? [];
  store.settings.set(takenKey(from), [taken, ...before].slice(0, TAKEN_KEPT));
}

export interface HandedOverDeps {
  store: Store;
  technician: () => { id: number; userid: number };
  now: () => number;
}

const keyOf = (technicianId: number) => `worklog.handedOver.${technicianId}`;

/**
 * Suspended sessions of others, across guides (suspended-lists.ts; names looked up once per person). When the site
 * does not answer, the list this computer last learned, with when it learned it. A site that lists them per guide
 * only is asked for the guides worked on here (by anyone), then those its answer names, then those kept whole.
 */
export async function handedOver(deps: HandedOverDeps, transport: ApiTransport): Promise<HandedOverList> {
  const me = deps.technician();
  const key = keyOf(me.id);
  const before = deps.store.settings.get(key, learned);
  const { sessions: repo, guides } = deps.store;
  let listed: SuspendedAcross;
  try {
    listed = await suspendedAcross(deps.store, transport, (answer) => [
      ...repo.guidesWorkedOn(null, GUIDES_ASKED),
      ...(answer?.entries.map((entry) => entry.guideid) ?? []),
      ...guides.wholeIds(10 * GUIDES_ASKED),
    ]);
  } catch (error) {
    const failure = asAppFailure(error);
    // As last learned, less what this laptop knows is no longer handed over (taken back, or over, here since).
    if (before && failure instanceof AppFailure && failure.code === 'offline')
      return {
        ...before,
        sessions: before.sessions.filter((s) => stillHandedOver(deps.store, s)),
        takenFromYou: takenFrom(deps.store, me.id),
      };
    throw failure;
  }
  const theirs = listed.entries.filter((e) => e.status === 'suspended' && e.userid !== me.userid);
  const sessions = await describeEntries(deps, transport, theirs, before?.sessions ?? []);
  const unreadable = listed.unreadable.length;
  const { byGuide } = listed;
  deps.store.settings.set(key, { learnedAt: deps.now(), sessions, unreadable, byGuide });
  return { sessions, unreadable, learnedAt: null, takenFromYou: takenFrom(deps.store, me.id), byGuide };
}

const takenFrom = (store: Store, technicianId: number): TakenHere[] =>
  store.settings.get(takenKey(technicianId), takenHere) ?? [];

/**
 * Not known here as no longer handed over by whoever the list names: taken back, or taken over, here or on the
 * site (a sync learns that, worklog/handed-over-look.ts: the session stays suspended, someone else's), or
 * removed on the site.
 */
const stillHandedOver = (store: Store, listed: HandedOverSession): boolean => {
  const known = store.sessions.byEntry(listed.entryid);
  return (
    known === undefined ||
    (known.status === 'suspended' && known.userid === listed.userid && known.removedOnSite === null)
  );
};

/** Site entries as the technician reads them: the guide's title, who suspended them (by name) and when. */
export async function describeEntries(
  deps: Pick<HandedOverDeps, 'store'>,
  transport: ApiTransport,
  entries: SiteEntry[],
  known: HandedOverSession[] = [],
): Promise<HandedOverSession[]> {
  const names = await namesOf(transport, entries, known);
  return entries.map((entry) => ({
    entryid: entry.entryid,
    guideid: entry.guideid,
    guideTitle: deps.store.guides.getListItem(entry.guideid)?.title ?? `Guide ${entry.guideid}`,
    workorderid: entry.workorderid,
    userid: entry.userid,
    handedOverBy: names.get(entry.userid) ?? null,
    handedOverAt: entry.pausedAt,
    startedAt: entry.startedAt,
  }));
}

/** The site's user names of those who handed over; a name the site will not give stays as last learned. */
async function namesOf(
  transport: ApiTransport,
  entries: SiteEntry[],
  known: HandedOverSession[],
): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  for (const userid of new Set(entries.map((e) => e.userid))) {
    const name =
      (await userName(transport, userid).catch(() => null)) ?? known.find((s) => s.userid === userid)?.handedOverBy;
    if (name) names.set(userid, name);
  }
  return names;
}
