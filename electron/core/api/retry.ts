/** How many times a read (a GET, or a POST that only reads) whose connection was reset is asked again. */
export const READ_RETRIES = 2;

/** Waits `ms`, or less when `signal` ends first. */
export const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
