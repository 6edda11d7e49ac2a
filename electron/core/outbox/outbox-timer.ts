/**
 * Waits `ms`, then runs `run` (the next replay); answers how to cancel the wait. By default a timer that
 * does not hold the process open; tests run it on their simulated clock and await the replay it starts.
 */
export type OutboxTimer = (run: () => Promise<void>, ms: number) => () => void;

export const realTimer: OutboxTimer = (run, ms) => {
  const timer = setTimeout(() => void run(), ms);
  timer.unref();
  return () => clearTimeout(timer);
};
