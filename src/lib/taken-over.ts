import type { WorkSession } from '../../electron/contract.ts';
import { isOpen } from '../../electron/shared/worklog.ts';
import { useSessionStore } from '../stores/session.ts';
import { STATUS_LABELS } from './worklog-words.ts';

/**
 * Taken over on the site by another technician (the replay adopted the site's state, its user theirs): it is
 * read-only here, and no longer among this technician's open work, whatever its status on the site says.
 */
export function takenOverFrom(session: Pick<WorkSession, 'userid'>, me: number | null | undefined): boolean {
  return me != null && session.userid !== me;
}

/**
 * Open work on this computer: not ended, and still on the site. One removed there (WorkSession.removedOnSite) is
 * kept read-only, whatever its status says: a scan or a start offered to go back to it, where a new one is due.
 */
export const openHere = (session: Pick<WorkSession, 'status' | 'removedOnSite'>): boolean =>
  isOpen(session.status) && session.removedOnSite === null;

/** The session's state in a word, for its row and its header: what the site decided of it first. */
export function statusWords(session: Pick<WorkSession, 'status' | 'removedOnSite'>, takenOver: boolean): string {
  if (takenOver) return 'Taken over';
  return session.removedOnSite !== null ? 'Removed on the site' : STATUS_LABELS[session.status];
}

type Shown = Pick<WorkSession, 'userid' | 'status' | 'removedOnSite'>;

/** The signed-in technician's own check: open, and still theirs (a taken-over one showed "In progress"). */
export function useOwnWork(): {
  takenOver: (session: Pick<WorkSession, 'userid'>) => boolean;
  openAndMine: (session: Shown) => boolean;
  /** Taken over by another technician or removed on the site: nothing is done in it here. */
  readOnly: (session: Shown) => boolean;
  /** Its state in a word (statusWords), "Taken over" for one another technician has. */
  statusOf: (session: Shown) => string;
} {
  const app = useSessionStore();
  const takenOver = (session: Pick<WorkSession, 'userid'>) => takenOverFrom(session, app.status?.user?.userid);
  return {
    takenOver,
    openAndMine: (session) => openHere(session) && !takenOver(session),
    readOnly: (session) => takenOver(session) || session.removedOnSite !== null,
    statusOf: (session) => statusWords(session, takenOver(session)),
  };
}
