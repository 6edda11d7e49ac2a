import type { ApiTransport } from '../api/transport.ts';
import { lookAtHandedOver } from './handed-over-look.ts';
import { siteLists, type SiteLookDeps, type Technician } from './look-context.ts';
import { lookAtRunning } from './running-look.ts';
import { lookAtTakenOver } from './taken-over-look.ts';

/**
 * What each sync looks at of one technician's sessions on the site, with their sign-in and at theirs only: those
 * handed over (handed-over-look.ts), those running (running-look.ts) and those a colleague took over on the site
 * (taken-over-look.ts), each with nothing of theirs queued. Two list requests at most, each asked once whichever
 * looks read it, none when there is nothing to look at. One refused does not keep the others from looking (a
 * site that will not list handed-over entries still says a running session was cancelled); the first failure is
 * the sync's to report, once all have looked.
 */
export function siteLook(
  deps: SiteLookDeps,
  technician: Technician | null,
): (transport: ApiTransport, signal?: AbortSignal) => Promise<void> {
  return async (transport, signal) => {
    if (technician === null) return;
    let failed: { error: unknown } | null = null;
    const lists = siteLists(deps.store, transport, technician, signal);
    for (const look of [lookAtHandedOver, lookAtRunning, lookAtTakenOver]) {
      try {
        await look(deps, technician, lists);
      } catch (error) {
        if (signal?.aborted) throw error;
        failed ??= { error };
      }
    }
    if (failed) throw failed.error;
  };
}
