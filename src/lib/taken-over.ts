import type { WorkSession } from '../../electron/contract.ts';
import { isOpen } from '../../electron/shared/worklog.ts';
import { useSessionStore } from '../stores/session.ts';

/**
 * Taken over on the site by another technician (the replay adopted the site's state, its user theirs): it is
 * read-only here, and no longer among this technician's open work, whatever its status on the site says.
 */
export function takenOverFrom(session: Pick<WorkSession, 'userid'>, me: number | null | undefined): boolean {
  return me != null && session.userid !== me;
}

/** The signed-in technician's own check: open, and still theirs (a taken-over one showed "In progress"). */
export function useOwnWork(): {
  takenOver: (session: Pick<WorkSession, 'userid'>) => boolean;
  openAndMine: (session: Pick<WorkSession, 'userid' | 'status'>) => boolean;
} {
  const app = useSessionStore();
  const takenOver = (session: Pick<WorkSession, 'userid'>) => takenOverFrom(session, app.status?.user?.userid);
  return { takenOver, openAndMine: (session) => isOpen(session.status) && !takenOver(session) };
}
