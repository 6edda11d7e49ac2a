import { API_PREFIX } from '../app.ts';

/** The writes a client must not repeat blindly: a new work-log entry, an upload. */
const PATHS = { start: `${API_PREFIX}/work_log`, upload: `${API_PREFIX}/user/media/uploads` } as const;

/** A slow site (`--slow-writes MS`): how long its starts and uploads wait before they are applied. */
export interface SlowWrites {
  ms: number;
  /** Which writes are slow (default both). */
  writes?: readonly (keyof typeof PATHS)[];
  /** Only the first this many of them (a site slow for a while); default all. */
  first?: number;
}

/**
 * Plays a site that applies a start or an upload late: the request is read whole, then waits `ms`, then
 * is applied and answered. It is applied whether or not the client is still there, as a busy site
 * finishes what it received after the client gave up: what a client that looks only once then sends
 * again turns into two entries.
 */
export function slowWrites(fetch: (request: Request) => Response | Promise<Response>, slow: SlowWrites) {
  const paths: string[] = (slow.writes ?? ['start', 'upload']).map((write) => PATHS[write]);
  let seen = 0;
  return async (request: Request): Promise<Response> => {
    if (request.method !== 'POST' || !paths.includes(new URL(request.url).pathname)) return fetch(request);
    if (++seen > (slow.first ?? Infinity)) return fetch(request);
    // Read before waiting: a client that gives up must not take the body with it.
    const body = await request.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, slow.ms));
    return fetch(new Request(request.url, { method: request.method, headers: request.headers, body }));
  };
}
