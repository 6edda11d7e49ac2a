/** Retry delays: capped exponential backoff with full jitter, never sooner than the server asked. */
export const MIN_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 5 * 60_000;

export function retryDelayMs(attempts: number, random: () => number, retryAfterSeconds?: number): number {
  const ceiling = Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  const jittered = Math.floor(random() * ceiling);
  const asked = retryAfterSeconds !== undefined ? Math.min(MAX_DELAY_MS * 4, retryAfterSeconds * 1000) : 0;
  return Math.max(jittered, asked);
}

/**
 * When an action the site keeps refusing with a 5xx is stuck: shown with the failed ones (Retry/Discard),
 * holding its own chain only. After this many attempts, or this long after it was queued (and a few tries).
 */
export const STUCK_AFTER_ATTEMPTS = 8;
export const STUCK_AFTER_SECONDS = 6 * 3600;
const STUCK_AGE_MIN_ATTEMPTS = 3;

export function isStuck(attempts: number, ageSeconds: number): boolean {
  return attempts >= STUCK_AFTER_ATTEMPTS || (attempts >= STUCK_AGE_MIN_ATTEMPTS && ageSeconds >= STUCK_AFTER_SECONDS);
}
