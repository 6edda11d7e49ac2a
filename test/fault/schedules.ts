import type { Fault, Schedule, ScheduledRequest } from './faults.ts';

// Schedules are plain functions the proxy calls once per request, in arrival order. The stateful ones
// (counting or random) belong to one proxy: make a new one per test. Seeded ones are in seeded.ts.

export const PASS: Fault = Object.freeze({ kind: 'pass' });

export const passAll: Schedule = () => PASS;

export function always(fault: Fault): Schedule {
  return () => fault;
}

/** The first `n` requests the schedule sees (matching `paths`, when given) get `fault`; the rest pass. */
export function failFirst(n: number, fault: Fault, options: { paths?: RegExp; method?: string } = {}): Schedule {
  let seen = 0;
  return (request) => {
    if (!matches(request, options)) return PASS;
    seen += 1;
    return seen <= n ? fault : PASS;
  };
}

/** The i-th matching request gets `faults[i]`; after the list, everything passes. */
export function sequence(faults: readonly Fault[], options: { paths?: RegExp; method?: string } = {}): Schedule {
  let index = 0;
  return (request) => {
    if (!matches(request, options)) return PASS;
    return faults[index++] ?? PASS;
  };
}

/** `schedule` decides for matching requests only; others pass without reaching it. */
export function onPaths(paths: RegExp, schedule: Schedule, method?: string): Schedule {
  return (request) => (matches(request, { paths, method }) ? schedule(request) : PASS);
}

export function matches(
  request: ScheduledRequest,
  options: { paths?: RegExp | undefined; method?: string | undefined },
): boolean {
  if (options.method && request.method.toUpperCase() !== options.method.toUpperCase()) return false;
  // A global or sticky RegExp keeps state between test() calls; reset it so each request is judged alone.
  if (options.paths) {
    options.paths.lastIndex = 0;
    if (!options.paths.test(request.path)) return false;
  }
  return true;
}
