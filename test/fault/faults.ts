/** What the proxy does with one request. Every duration is capped by the proxy's limits. */
export type Fault =
  | { kind: 'pass' }
  /** RST the client socket as soon as the request head arrives; the site never sees the request. */
  | { kind: 'reset' }
  /** Answer without forwarding: `{"message": ...}` with this status, and `Retry-After` when given. */
  | { kind: 'status'; status: number; message?: string; retryAfter?: number | string }
  /** Wait `ms`, then forward; with `beforeReply` the request is forwarded first and the reply waits. */
  | { kind: 'delay'; ms: number; beforeReply?: boolean }
  /**
   * Forward, then send the head and only part of the body, then close: `bytes` of it, or `fraction`
   * (default 0.5) of its length, always fewer bytes than the whole.
   */
  | { kind: 'cutBody'; fraction?: number; bytes?: number }
  /** Never answer; destroy the connection after `ms` (default: the proxy's `maxStallMs`). Not forwarded. */
  | { kind: 'stall'; ms?: number }
  /** Forward (the site commits), read the whole reply, then RST the client instead of replying. */
  | { kind: 'dropResponse' }
  /**
   * Forward, then answer with the site's body changed by `body` (its text, decompressed; sent back
   * uncompressed): a real site's odd answer made from the reference site's own.
   */
  | { kind: 'rewrite'; body: (text: string) => string }
  /** RST every idle keep-alive client connection now, then handle this request with `then` (default pass). */
  | { kind: 'resetIdle'; then?: Exclude<Fault, { kind: 'resetIdle' }> };

export type FaultKind = Fault['kind'];

export const FAULT_KINDS: readonly FaultKind[] = [
  'pass',
  'reset',
  'status',
  'delay',
  'cutBody',
  'stall',
  'dropResponse',
  'rewrite',
  'resetIdle',
];

/** The request as a schedule sees it. `seq` counts from 1 per proxy; `path` is the request target with its query. */
export interface ScheduledRequest {
  seq: number;
  method: string;
  path: string;
}

export type Schedule = (request: ScheduledRequest) => Fault;

export interface FaultLimits {
  maxDelayMs: number;
  maxStallMs: number;
}

/** Rejects faults a typo or a bad generator would make silently meaningless, and caps durations. */
export function checkFault(fault: Fault, limits: FaultLimits): Fault {
  switch (fault.kind) {
    case 'status':
      if (!Number.isInteger(fault.status) || fault.status < 400 || fault.status > 599) {
        throw new Error(`status fault needs a 4xx or 5xx status, got ${String(fault.status)}`);
      }
      return fault;
    case 'delay':
      return { ...fault, ms: clampMs(fault.ms, limits.maxDelayMs) };
    case 'stall':
      return { ...fault, ms: clampMs(fault.ms ?? limits.maxStallMs, limits.maxStallMs) };
    case 'cutBody':
      if (fault.fraction !== undefined && !(fault.fraction >= 0 && fault.fraction < 1)) {
        throw new Error(`cutBody fraction must be in [0, 1), got ${fault.fraction}`);
      }
      if (fault.bytes !== undefined && !(Number.isInteger(fault.bytes) && fault.bytes >= 0)) {
        throw new Error(`cutBody bytes must be a non-negative integer, got ${fault.bytes}`);
      }
      return fault;
    case 'rewrite':
      if (typeof fault.body !== 'function') throw new Error('rewrite fault needs a body function');
      return fault;
    case 'resetIdle':
      return fault.then
        ? { ...fault, then: checkFault(fault.then, limits) as Exclude<Fault, { kind: 'resetIdle' }> }
        : fault;
    case 'pass':
    case 'reset':
    case 'dropResponse':
      return fault;
    default:
      throw new Error(`unknown fault kind: ${String((fault as { kind: unknown }).kind)}`);
  }
}

function clampMs(ms: number, max: number): number {
  if (!Number.isFinite(ms) || ms < 0) throw new Error(`fault duration must be a finite number >= 0, got ${ms}`);
  return Math.min(ms, max);
}

/** How many body bytes a cut reply sends: fewer than `total` whenever `total > 0`. */
export function cutLength(fault: Extract<Fault, { kind: 'cutBody' }>, total: number): number {
  if (total === 0) return 0;
  const wanted = fault.bytes ?? Math.floor(total * (fault.fraction ?? 0.5));
  return Math.min(wanted, total - 1);
}
