import type { ApiTransport } from '../api/transport.ts';
import { lookAtHandedOver } from './handed-over-look.ts';
import type { SiteLookDeps, Technician } from './look-context.ts';
import { lookAtRunning } from './running-look.ts';

/**
 * What each sync looks at of one technician's sessions on the site, with their sign-in and at theirs only: those
 * handed over (handed-over-look.ts) and those running (running-look.ts), each with nothing of theirs queued. One
 * list request each at most, none when there is nothing to look at. One refused does not keep the other from
 * looking (a site that will not list handed-over entries still says a running session was cancelled); the first
 * failure is the sync's to report, once both have looked.
 */
export function siteLook(
  deps: SiteLookDeps,
  technician: Technician | null,
): (transport: ApiTransport, signal?: AbortSignal) => Promise<void> {
  return async (transport, signal) => {
    if (technician === null) return;
    let failed: { error: unknown } | null = null;
    for (const look of [lookAtHandedOver, lookAtRunning]) {
      try {
        await look(deps, technician, transport, signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        failed ??= { error };
      }
    }
    if (failed) throw failed.error;
  };
}
