import { FRONT_CONNECTIONS, frontLaneIdleFor } from '../api/http.ts';
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
 * its FRONT_CONNECTIONS connections is opened now with the smallest question (who is signed in, as the
 * reachability check asks), then asked it again in turn: FRONT_CONNECTIONS times each FRONT_WARM_MS, the
 * connection given nothing for the longest (api/front-connections.ts), if for half FRONT_WARM_MS at least.
 * So each is asked about every FRONT_WARM_MS (the first round spreads them out), one at a time, and the
 * others are free for the technician meanwhile. What the answers say is not used. Returns the stop.
 */
export function keepFrontLaneWarm(transport: ApiTransport): () => void {
  const warmth = transport.frontWarmth();
  const origin = new URL(warmth.siteUrl).origin;
  const ask = (): void => void warmth.request('GET', '/user').catch(() => undefined);
  for (let i = 0; i < FRONT_CONNECTIONS; i++) ask();
  const timer = setInterval(() => {
    const idle = frontLaneIdleFor(origin);
    if (idle !== null && idle >= FRONT_WARM_MS / 2) ask();
  }, FRONT_WARM_MS / FRONT_CONNECTIONS);
  timer.unref();
  return () => clearInterval(timer);
}
