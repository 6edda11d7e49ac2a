import type { WorkStatus } from '../../contract.ts';
import type { ApiTransport } from '../api/transport.ts';
import { entriesOfUser, type ReadableEntries } from '../api/work-log-api.ts';
import { chainKey } from '../db/chains.ts';
import type { SessionState } from '../db/repos/sessions-repo.ts';
import type { Store } from '../db/store.ts';
import type { WorklogReplayDeps } from './replay/context.ts';
import type { DecisionContext } from './replay/follow-site.ts';
import { sessionChain } from './session-chain.ts';
import { suspendedAcross } from './suspended-lists.ts';

// What the sync's looks at the technician's sessions on the site share (handed-over-look.ts, running-look.ts).

export interface SiteLookDeps {
  store: Store;
  now: () => number;
  conflicts: Pick<WorklogReplayDeps, 'addConflict' | 'amendConflict'>;
  /** A session of `technician` took the site's decision: their window is told, and the outbox's counts. */
  changed: (sessionId: string, technician: number) => void;
}

/** The technician whose sign-in the sync uses: their local id and the site's userid. */
export type Technician = { id: number; userid: number };

/** A session the site has an entry of. */
export type OnSite = SessionState & { entryid: number };

/**
 * The technician's sessions in one of `statuses` that the site has, theirs on the site as far as this computer
 * knows, not removed there, with nothing of theirs waiting to be sent: what the site decided of them is known
 * only by looking (something queued goes, and the replay learns it from the answer).
 */
export function quietSessions(
  store: Store,
  technician: Technician,
  statuses: readonly WorkStatus[],
  taken = false,
): OnSite[] {
  return store.sessions.list({ ended: 0 }, technician.id).flatMap((id) => {
    const session = store.sessions.state(id);
    return session && isQuiet(store, technician, id, statuses, taken) ? [session as OnSite] : [];
  });
}

/**
 * Whether the session is still one `quietSessions` lists: looked at again in the transaction that records. With
 * `taken`, one the site gave to someone else instead (taken-over-look.ts), theirs as far as this computer knows.
 */
export function isQuiet(
  store: Store,
  technician: Technician,
  sessionId: string,
  statuses: readonly WorkStatus[],
  taken = false,
): boolean {
  const session = store.sessions.state(sessionId);
  return (
    session !== undefined &&
    statuses.includes(session.status) &&
    session.entryid !== null &&
    session.removedOnSite === null &&
    (session.userid === technician.userid) !== taken &&
    store.sessions.technicianOf(sessionId) === technician.id &&
    store.outbox.chainLength(chainKey(sessionChain(sessionId))) === 0
  );
}

/** What the replay records a decision with, for the technician whose sign-in the sync uses. */
export const contextOf = (deps: SiteLookDeps, technician: Technician, transport: ApiTransport): DecisionContext => ({
  sessions: deps.store.sessions,
  conflicts: deps.store.conflicts,
  guides: deps.store.guides,
  outbox: deps.store.outbox,
  // What the site answered, it can give again (as the replay's).
  transaction: (fn) => deps.store.replaceable(fn),
  transport,
  technician: technician.id,
  now: deps.now,
  conflict: (conflict) => deps.conflicts.addConflict({ ...conflict, technician: technician.id }),
  amendConflict: deps.conflicts.amendConflict,
});

/**
 * The two lists the looks read, each asked at most once a sync whichever looks need it: the entries handed over
 * on the site that the technician may take, and their own newest entries. Both under their sign-in.
 */
export interface SiteLists {
  transport: ApiTransport;
  signal: AbortSignal | undefined;
  handedOver: () => Promise<ReadableEntries>;
  theirs: () => Promise<ReadableEntries>;
}

export function siteLists(
  store: Store,
  transport: ApiTransport,
  technician: Technician,
  signal?: AbortSignal,
): SiteLists {
  let handedOver: Promise<ReadableEntries> | null = null;
  let theirs: Promise<ReadableEntries> | null = null;
  // On a site that lists them per guide only: the guides of the technician's open sessions here, those looked at.
  const openGuides = () =>
    store.sessions.list({ ended: 0 }, technician.id).flatMap((id) => store.sessions.state(id)?.guideid ?? []);
  return {
    transport,
    signal,
    handedOver: () => (handedOver ??= suspendedAcross(store, transport, openGuides, signal)),
    theirs: () => (theirs ??= entriesOfUser(transport, technician.userid, signal)),
  };
}
