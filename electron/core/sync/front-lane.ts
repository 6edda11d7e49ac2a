import { FRONT_CONNECTIONS, frontLaneBusy } from '../api/http.ts';
import type { ApiTransport } from '../api/transport.ts';

/**
 * How often the front lane's connections are asked something while a sync runs: under the 3 s undici
 * keeps an idle connection to a site whose keep-alive is 5 s (Node's and Apache's default, less its 2 s
 * margin), so none of them closes.
 */
export const FRONT_WARM_MS = 2_000;

/**
 * Whether a sync with this many guides and files to fetch keeps every shared connection busy for more
 * than a round trip or two: more guides than its lanes start with (six, pool.ts), or more files than
 * four lanes take in a few rounds. A smaller sync is done before a technician's request would wait long,
 * and asks nothing more of the site than it needs (the lane's questions are requests too).
 */
export function fillsConnections(guides: number, files: () => number): boolean {
  return guides > 6 || files() > 16;
}

/**
 * Keeps the front lane (api/http.ts) open while a sync fills every shared connection to the site: a
 * guide the technician opens or keeps meanwhile is asked at once, on connections already open, instead
 * of after the handshake of a new one (a round trip, two over TLS) or behind the sync's answers. Each of
 * its FRONT_CONNECTIONS connections is asked the smallest question (who is signed in, as the
 * reachability check asks) now and every FRONT_WARM_MS, never while the technician's own requests are
 * on the lane (they keep it open). What the answers say is not used. Returns the stop.
 */
export function keepFrontLaneWarm(transport: ApiTransport): () => void {
  const front = transport.front();
  const origin = new URL(front.siteUrl).origin;
  const ask = (): void => {
    if (frontLaneBusy(origin)) return;
    for (let i = 0; i < FRONT_CONNECTIONS; i++) void front.request('GET', '/user').catch(() => undefined);
  };
  ask();
  const timer = setInterval(ask, FRONT_WARM_MS);
  timer.unref();
  return () => clearInterval(timer);
}
