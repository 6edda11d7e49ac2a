/** Retry delays: capped exponential backoff with full jitter, never sooner than the server asked. */
export const MIN_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 5 * 60_000;

export function retryDelayMs(attempts: number, random: () => number, retryAfterSeconds?: number): number {
  const ceiling = Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  const jittered = Math.floor(random() * ceiling);
  const asked = retryAfterSeconds !== undefined ? Math.min(MAX_DELAY_MS * 4, retryAfterSeconds * 1000) : 0;
  return Math.max(jittered, asked);
}
