import type { AppApi, OutboxSummary } from '../../electron/contract.ts';
import { perRequestSchedule, type FaultProxy } from '../fault/proxy.ts';
import { unwrap } from './library.ts';
import { signedInOverProxy } from './services.ts';

/**
 * The fault schedule the seeded replay tests send the work through (outbox-faults*.test.ts): resets, 5xx,
 * cut and dropped answers after the site committed, stalls, idle resets and delays, at most two failures
 * a request, on the paths a test names. Drawn from `seed`: a failing run is replayed as it failed.
 */
export function replayFaults(proxy: FaultProxy, seed: number, onlyPaths: RegExp): void {
  proxy.clearLog();
  proxy.setSchedule(
    perRequestSchedule(seed, {
      rates: {
        reset: 0.08,
        status: 0.08,
        cutBody: 0.06,
        dropResponse: 0.12,
        stall: 0.02,
        resetIdle: 0.03,
        delay: 0.05,
      },
      maxFailuresPerRequest: 2,
      onlyPaths,
      stallMs: 300,
      delayMs: [1, 20],
    }),
  );
}

/** The faults the proxy made since the schedule was set, added to `kinds`; then it passes everything. */
export function faultsMade(proxy: FaultProxy, kinds: Map<string, number>): void {
  for (const [kind, count] of Object.entries(proxy.counts)) kinds.set(kind, (kinds.get(kind) ?? 0) + count);
  proxy.passAll();
}

/** Send now until nothing is waiting or in flight (40 times at most), then faultsMade. */
export async function flushThroughFaults(
  api: AppApi,
  proxy: FaultProxy,
  kinds: Map<string, number>,
): Promise<OutboxSummary> {
  let summary = unwrap(await api.flushOutbox());
  for (let flushes = 1; flushes < 40 && summary.pending + summary.inFlight > 0; flushes++)
    summary = unwrap(await api.flushOutbox());
  faultsMade(proxy, kinds);
  return summary;
}

/**
 * The demo site behind a fault proxy whose every fault ends within half a second (a stall closes the
 * connection), and an app signed in as tech1 through it: where a seeded replay test starts.
 */
export function signedInThroughFaults(): ReturnType<typeof signedInOverProxy> {
  return signedInOverProxy({ maxStallMs: 300, upstreamTimeoutMs: 5_000 });
}
