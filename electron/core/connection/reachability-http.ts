import type { Http, HttpInit } from '../api/http.ts';
import { saysSiteAway, SiteUnreachableError } from '../api/network-errors.ts';
import { retryAfterSeconds } from '../api/retry.ts';
import type { Reachability } from './reachability.ts';

/**
 * HTTP to the current site that tells `reach` what happens (any answer, no answer, a long wait). While the
 * site is known not to answer, a request first joins a short check (a refused site answers it in
 * milliseconds, a hanging one within PROBE_MS): sent if the site answered, else failed with
 * SiteUnreachableError (said in plain words by network-errors.ts), never waiting out its own time limit.
 * A read still waiting for its answer when the site is found unreachable (by a check begun after it left)
 * ends then too; a change (POST, PATCH, DELETE) that has left waits for its own answer or time limit: what
 * became of it stays the outbox's to find out, as before. Other origins (a media host) pass untouched.
 */
export function reachabilityHttp(base: Http, siteUrl: string, reach: Reachability): Http {
  const origin = new URL(siteUrl).origin;
  return async (url, init) => {
    if (url.origin !== origin) return base(url, init);
    if (!reach.reachable && !(await reach.check())) throw new SiteUnreachableError();
    const sentAt = reach.now();
    const done = reach.sent();
    const method = init.method ?? 'GET';
    const ending = method === 'GET' || method === 'HEAD' ? endsWhenLost(init, reach, sentAt) : null;
    try {
      const answer = await base(url, ending ? { ...init, signal: ending.signal } : init);
      reach.heard(askedToWaitMs(answer.status, answer.headers.get('retry-after')));
      return answer;
    } catch (error) {
      if (ending?.lost()) throw new SiteUnreachableError({ cause: error });
      // Refused, or its time limit out: the site is away. A reset on the way (a lossy link) only asks
      // whether it is; a caller that gave up is no news of the site.
      if (init.signal?.aborted ? timedOut(init.signal) : saysSiteAway(error)) reach.unanswered(sentAt);
      else if (!init.signal?.aborted) void reach.check();
      throw error;
    } finally {
      ending?.release();
      done();
    }
  };
}

/**
 * The caller's signal, relayed (for the answer's body too), and the site found unreachable by what began
 * after the read left (Reachability.awaitAnswer): one controller, cheaper than AbortSignal.any per request.
 */
function endsWhenLost(
  init: HttpInit,
  reach: Reachability,
  sentAt: number,
): { signal: AbortSignal; lost: () => boolean; release: () => void } {
  const controller = new AbortController();
  const caller = init.signal;
  let ended = false;
  if (caller?.aborted) controller.abort(caller.reason);
  else caller?.addEventListener('abort', () => controller.abort(caller.reason), { once: true });
  const release = reach.awaitAnswer(sentAt, () => {
    ended = true;
    controller.abort(new SiteUnreachableError());
  });
  return { signal: controller.signal, lost: () => ended && !caller?.aborted, release };
}

const timedOut = (signal: AbortSignal): boolean =>
  typeof signal.reason === 'object' && (signal.reason as { name?: unknown } | null)?.name === 'TimeoutError';

/** A busy site's Retry-After (429, 503): no quiet-site check is sent before it is over. */
function askedToWaitMs(status: number, header: string | null): number {
  if (status !== 429 && status !== 503) return 0;
  return (retryAfterSeconds(header) ?? 0) * 1000;
}
