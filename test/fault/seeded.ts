import type { Fault, FaultKind, Schedule, ScheduledRequest } from './faults.ts';
import { matches, PASS } from './schedules.ts';

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

/** FNV-1a: turns a request's identity into a seed. */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

export type FaultRates = Partial<Record<Exclude<FaultKind, 'pass'>, number>>;

export interface FaultDraw {
  /** Probability per matching request of each fault kind; the rest pass. Must sum to at most 1. */
  rates: FaultRates;
  /** Only matching requests may fail (and only they draw from the generator). */
  onlyPaths?: RegExp;
  /** Only requests of this method may fail. */
  method?: string;
  /** Default [500, 502, 503, 429]. */
  statuses?: readonly number[];
  /** Added to 429 and 503 answers when set. */
  retryAfterSeconds?: number;
  /** Inclusive range, default [1, 50]. */
  delayMs?: readonly [number, number];
  /** Default 2000: long enough for a client timeout shorter than that to fire. */
  stallMs?: number;
}

export interface SeededOptions extends FaultDraw {
  /** After this many injected faults everything passes, so a retrying client always gets through. */
  maxFaults?: number;
}

export interface PerRequestOptions extends FaultDraw {
  /** A given method and path fails at most this many times (default 2), then always passes. */
  maxFailuresPerRequest?: number;
}

// Fixed order: the same seed maps to the same kinds whatever order the caller wrote `rates` in.
const RANDOM_KINDS = ['reset', 'status', 'delay', 'cutBody', 'stall', 'dropResponse', 'resetIdle'] as const;

/** Checks the options once, then draws one fault (or pass) per call from `random`. */
function faultDrawer(options: FaultDraw): (random: () => number) => Fault {
  const total = RANDOM_KINDS.reduce((sum, kind) => sum + checkRate(kind, options.rates[kind]), 0);
  if (total > 1 + 1e-9) throw new Error(`fault rates sum to ${total}, more than 1`);
  const statuses = options.statuses ?? [500, 502, 503, 429];
  if (statuses.length === 0) throw new Error('statuses must not be empty');
  const [minDelay, maxDelay] = options.delayMs ?? [1, 50];

  return (random) => {
    const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
    let roll = random();
    const kind = RANDOM_KINDS.find((candidate) => {
      const rate = options.rates[candidate] ?? 0;
      if (roll < rate) return true;
      roll -= rate;
      return false;
    });
    switch (kind) {
      case undefined:
        return PASS;
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
}

const eligible = (request: ScheduledRequest, options: FaultDraw) =>
  matches(request, { paths: options.onlyPaths, method: options.method });

/**
 * One random stream in arrival order: for a given seed the n-th matching request always gets the same
 * fault, with the same parameters. Deterministic for sequential clients; with concurrent requests the
 * arrival order (and so who gets what) can vary, which `perRequestSchedule` avoids.
 */
export function seededSchedule(seed: number, options: SeededOptions): Schedule {
  const draw = faultDrawer(options);
  const random = mulberry32(seed);
  const maxFaults = options.maxFaults ?? Number.POSITIVE_INFINITY;
  let injected = 0;
  return (request) => {
    if (!eligible(request, options)) return PASS;
    // Draw even past maxFaults, so the stream stays aligned with the request count.
    const fault = draw(random);
    if (fault.kind === 'pass' || injected >= maxFaults) return PASS;
    injected += 1;
    return fault;
  };
}

/**
 * The fault depends only on the seed, the method and path, and how many times that method and path
 * came before: the same for any interleaving of concurrent requests. Each method and path fails at
 * most `maxFailuresPerRequest` times, so a client that retries always converges.
 */
export function perRequestSchedule(seed: number, options: PerRequestOptions): Schedule {
  const draw = faultDrawer(options);
  const maxFailures = options.maxFailuresPerRequest ?? 2;
  const seen = new Map<string, { count: number; failures: number }>();
  return (request) => {
    if (!eligible(request, options)) return PASS;
    const key = `${request.method.toUpperCase()} ${request.path}`;
    const state = seen.get(key) ?? { count: 0, failures: 0 };
    seen.set(key, state);
    state.count += 1;
    if (state.failures >= maxFailures) return PASS;
    const fault = draw(mulberry32(hash32(`${seed >>> 0}|${key}|${state.count}`)));
    if (fault.kind !== 'pass') state.failures += 1;
    return fault;
  };
}

function checkRate(kind: string, rate: number | undefined): number {
  if (rate === undefined) return 0;
  if (!(rate >= 0 && rate <= 1)) throw new Error(`rate for ${kind} must be in [0, 1], got ${rate}`);
  return rate;
}
