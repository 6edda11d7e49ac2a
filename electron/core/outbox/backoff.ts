import { RETRY_BUDGETS } from '../api/retry.ts';

/** Retry delays: capped exponential backoff with full jitter, never sooner than the server asked. */
export const MIN_DELAY_MS = RETRY_BUDGETS.outboxMinDelayMs;
export const MAX_DELAY_MS = RETRY_BUDGETS.outboxMaxDelayMs;

export function retryDelayMs(attempts: number, random: () => number, retryAfterSeconds?: number): number {
  const ceiling = Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  const jittered = Math.floor(random() * ceiling);
  const asked = retryAfterSeconds !== undefined ? Math.min(MAX_DELAY_MS * 4, retryAfterSeconds * 1000) : 0;
  return Math.max(jittered, asked);
}

/**
 * When an action the site keeps refusing with a 5xx is stuck: shown with the failed ones (Retry/Discard),
 * holding its own chain only. Stuck means the site keeps refusing, not that the network was away: only
 * the site's own answers count (`refusals` in a row; a request with no answer ends the run), and the
 * time counts from the first of them, never from when the action was queued. So this many refusals over
 * at least half an hour (an outage of a few minutes is waited out), or a few over six hours (a site that
 * asks to wait long between tries).
 */
export const STUCK_AFTER_REFUSALS = 8;
export const STUCK_MIN_SECONDS = 30 * 60;
export const STUCK_AFTER_SECONDS = 6 * 3600;
const STUCK_SLOW_MIN_REFUSALS = 3;

export function isStuck(refusals: number, secondsSinceFirstRefusal: number): boolean {
  const over = (seconds: number): boolean => secondsSinceFirstRefusal >= seconds;
  return (
    (refusals >= STUCK_AFTER_REFUSALS && over(STUCK_MIN_SECONDS)) ||
    (refusals >= STUCK_SLOW_MIN_REFUSALS && over(STUCK_AFTER_SECONDS))
  );
}
