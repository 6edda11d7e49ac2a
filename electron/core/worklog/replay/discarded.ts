import { chainKey } from '../../db/chains.ts';
import type { OutboxRow } from '../../db/repos/outbox-repo.ts';
import type { Store } from '../../db/store.ts';
import { sessionChain } from '../session-chain.ts';
import { startAction } from './start.ts';
import { dropUnsentFile } from './unsent-files.ts';
import { uploadAction } from './upload.ts';

/**
 * What goes with a work-log action the technician discarded in the sync centre (OutboxFeature.discarded),
 * of what waits behind it in its session and could only be refused next, one discard after another:
 * - an upload: the values that name its file (unsent-files.ts);
 * - a start that never made the session's entry (the site refused it: its guide deleted, the work order
 *   not taken): every other action of the session, which would each fail "This session was never created
 *   on the site" (a session of a start, two saves, a pause, a resume and a finish took five discards).
 *   The session and all entered in it stay on this computer, as its report shows them.
 */
export function dropWithDiscarded(store: Pick<Store, 'sessions' | 'outbox'>, row: OutboxRow): void {
  if (row.kind === uploadAction.name) {
    const read = uploadAction.parse(row);
    if (read.ok) dropUnsentFile(store, read.payload.sessionId, read.payload.attachmentId);
    return;
  }
  if (row.kind !== startAction.name) return;
  const read = startAction.parse(row);
  if (!read.ok) return;
  const session = store.sessions.state(read.payload.sessionId);
  if (!session || session.entryid !== null) return;
  for (const waiting of store.outbox.inChain(chainKey(sessionChain(session.id))))
    if (waiting.state !== 'in_flight') store.outbox.remove(waiting.id);
}
