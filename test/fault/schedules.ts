import type { Fault, FaultKind, Schedule, ScheduledRequest } from './faults.ts';

// Schedules are plain functions the proxy calls once per request, in arrival order. The stateful ones
// (counting or random) belong to one proxy: make a new one per test.

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

function matches(request: ScheduledRequest, options: { paths?: RegExp | undefined; method?: string | undefined }): boolean {
  if (options.method && request.method.toUpperCase() !== options.method.toUpperCase()) return false;
  // A global or sticky RegExp keeps state between test() calls; reset it so each request is judged alone.
  if (options.paths) {
    options.paths.lastIndex = 0;
    if (!options.paths.test(request.path)) return false;
  }
  return true;
}

/** Small, fast, good enough for test schedules; the same seed always gives the same stream. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FaultRates = Partial<Record<Exclude<FaultKind, 'pass'>, number>>;

export interface SeededOptions {
  /** Probability per matching request of each fault kind; the rest pass. Must sum to at most 1. */
  rates: FaultRates;
  /** After this many injected faults everything passes, so a retrying client always gets through. */
  maxFaults?: number;
  /** Only matching requests may fail, and only they draw from the generator. */
  onlyPaths?: RegExp;
  /** Default [500, 502, 503, 429]. */
  statuses?: readonly number[];
  /** Added to 429 and 503 answers when set. */
  retryAfterSeconds?: number;
  /** Inclusive range, default [1, 50]. */
  delayMs?: readonly [number, number];
  /** Default 2000: long enough for a client timeout shorter than that to fire. */
  stallMs?: number;
}

// Fixed order: the same seed maps to the same kinds whatever order the caller wrote `rates` in.
const RANDOM_KINDS = ['reset', 'status', 'delay', 'cutBody', 'stall', 'dropResponse', 'resetIdle'] as const;

/**
 * A deterministic random schedule: for a given seed, the n-th matching request always gets the same
 * fault, with the same parameters. Requests that don't match `onlyPaths` don't advance the generator.
 */
export function seededSchedule(seed: number, options: SeededOptions): Schedule {
  const total = RANDOM_KINDS.reduce((sum, kind) => sum + checkRate(kind, options.rates[kind]), 0);
  if (total > 1 + 1e-9) throw new Error(`fault rates sum to ${total}, more than 1`);
  const statuses = options.statuses ?? [500, 502, 503, 429];
  if (statuses.length === 0) throw new Error('statuses must not be empty');
  const [minDelay, maxDelay] = options.delayMs ?? [1, 50];
  const random = mulberry32(seed);
  const maxFaults = options.maxFaults ?? Number.POSITIVE_INFINITY;
  let injected = 0;

  const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const make = (kind: (typeof RANDOM_KINDS)[number]): Fault => {
    switch (kind) {
      case 'status': {
        const status = statuses[between(0, statuses.length - 1)]!;
        const withRetry = options.retryAfterSeconds !== undefined && (status === 429 || status === 503);
        return withRetry ? { kind, status, retryAfter: options.retryAfterSeconds! } : { kind, status };
      }
      case 'delay':
        return { kind, ms: between(minDelay, maxDelay), beforeReply: random() < 0.5 };
      case 'cutBody':
        return { kind, fraction: Math.floor(random() * 90) / 100 };
      case 'stall':
        return { kind, ms: options.stallMs ?? 2000 };
      case 'reset':
      case 'dropResponse':
      case 'resetIdle':
        return { kind };
    }
  };

  return (request) => {
    if (options.onlyPaths) {
      options.onlyPaths.lastIndex = 0;
      if (!options.onlyPaths.test(request.path)) return PASS;
    }
    // Always draw, even past maxFaults, so the stream stays aligned with the request count.
    let roll = random();
    let chosen: (typeof RANDOM_KINDS)[number] | undefined;
    for (const kind of RANDOM_KINDS) {
      const rate = options.rates[kind] ?? 0;
      if (roll < rate) {
        chosen = kind;
        break;
      }
      roll -= rate;
    }
    if (!chosen) return PASS;
    const fault = make(chosen);
    if (injected >= maxFaults) return PASS;
    injected += 1;
    return fault;
  };
}

function checkRate(kind: string, rate: number | undefined): number {
  if (rate === undefined) return 0;
  if (!(rate >= 0 && rate <= 1)) throw new Error(`rate for ${kind} must be in [0, 1], got ${rate}`);
  return rate;
}
