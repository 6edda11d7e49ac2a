import { classify } from '../api/failure.ts';
import type { ApiTransport } from '../api/transport.ts';
import { pause, RETRY_BUDGETS } from '../api/retry.ts';

/** The longest `Retry-After` a sync waits out; a site asking for more fails that request (the next sync tries). */
export const MAX_RETRY_AFTER_SECONDS = RETRY_BUDGETS.busyLongestWaitSeconds;
/** How many times one request waits before its failure is reported. */
const MAX_WAITS = RETRY_BUDGETS.busyWaits;

/**
 * The transport of a sync, patient with a busy site: `429` and `503` that say `Retry-After` are waited
 * out as told (never asking sooner) and asked again, without failing the sync. A `429` that does not say
 * waits a second, then two, then four. Cancelling the sync ends a wait at once.
 */
export function patient(
  transport: ApiTransport,
  signal: AbortSignal,
  sleep: (ms: number, signal: AbortSignal) => Promise<void> = pause,
): ApiTransport {
  async function again<T>(ask: () => Promise<T>): Promise<T> {
    for (let waits = 0; ; waits++) {
      try {
        return await ask();
      } catch (error) {
        const seconds = waitFor(error, waits);
        if (seconds === null || waits >= MAX_WAITS || signal.aborted) throw error;
        // A little over what was asked: a timer may fire a hair early, and the site counts from its own clock.
        await sleep(seconds * 1000 + 50, signal);
        if (signal.aborted) throw error;
      }
    }
  }
  return around(transport, again);
}

/** The transport with every method the sync uses asked through `ask` (the token stays inside the original). */
export function around(transport: ApiTransport, ask: <T>(call: () => Promise<T>) => Promise<T>): ApiTransport {
  const wrapped: Pick<ApiTransport, 'request' | 'download' | 'probeSize' | 'hasToken' | 'siteUrl' | 'baseUrl'> = {
    siteUrl: transport.siteUrl,
    baseUrl: transport.baseUrl,
    get hasToken() {
      return transport.hasToken;
    },
    request: (method, path, options) => ask(() => transport.request(method, path, options)),
    download: (url, signal) => ask(() => transport.download(url, signal)),
    probeSize: (url, signal) => ask(() => transport.probeSize(url, signal)),
  };
  return wrapped as ApiTransport;
}

function waitFor(error: unknown, waits: number): number | null {
  const failure = classify(error);
  if (failure.kind !== 'busy') return null;
  const { retryAfter } = failure;
  if (retryAfter !== undefined) return retryAfter <= MAX_RETRY_AFTER_SECONDS ? retryAfter : null;
  return failure.limit === 'rate' ? 2 ** waits : null;
}
