import type { Fault, FaultKind, Schedule } from './faults.ts';
import type { Outcome } from './reply.ts';
import type { Target } from './upstream.ts';

export interface FaultProxyOptions {
  /** The site to forward to, e.g. `{ port: site.port }`; host defaults to 127.0.0.1. */
  target: Target;
  /** Default: everything passes. */
  schedule?: Schedule;
  /** Cap on `delay` faults. Default 10 s. */
  maxDelayMs?: number;
  /** Cap on `stall` faults, and their duration when they name none. Default 10 s. */
  maxStallMs?: number;
  /** The site may stay silent this long before the proxy gives up (a 502, or a reply cut short). Default 15 s. */
  upstreamTimeoutMs?: number;
  /** Idle client keep-alive connections close after this. Default 5 s, like Node's server. */
  keepAliveTimeoutMs?: number;
  /** Request bodies, and the responses `cutBody`/`dropResponse` hold, larger than this are refused. Default 64 MiB. */
  maxBodyBytes?: number;
  /**
   * Listens on this port (a proxy closed and started again where clients
   * know it: the site back after refusing). Default: any free port.
   */
  port?: number;
}

export interface ProxyLogEntry {
  seq: number;
  method: string;
  /** Request target with its query, as the client sent it. */
  path: string;
  /** The fault applied (for `resetIdle`, its `then`); durations already capped. */
  fault: Fault;
  /** For a `resetIdle` fault: how many idle connections it reset. */
  idleResets?: number;
  /** Whether the request was sent to the site (so it may have had its effect). */
  forwarded: boolean;
  /** The site's status, when it answered. */
  upstreamStatus?: number;
  /** Set when the exchange ends. */
  outcome?: Outcome;
  error?: string;
  /** Set when the exchange ends. */
  durationMs?: number;
  done: boolean;
}

export interface ProxyStats {
  /** Client connections accepted so far. */
  connections: number;
  /** Client connections open now. */
  openConnections: number;
  /** Idle connections reset by `resetIdle` (the fault or the method). */
  idleResets: number;
  inFlight: number;
}

export interface FaultProxy {
  /** `http://127.0.0.1:PORT`: give clients this as the site address. */
  readonly url: string;
  readonly port: number;
  /** Every request in arrival order; entries are added on arrival and completed when they end. */
  readonly log: readonly ProxyLogEntry[];
  /** Faults applied, by kind; a `resetIdle` counts under its own kind and its `then`'s. */
  readonly counts: Readonly<Record<FaultKind, number>>;
  readonly stats: Readonly<ProxyStats>;
  /** Log entries whose path (with query) matches, optionally of one method. */
  requestsTo(path: RegExp, method?: string): ProxyLogEntry[];
  setSchedule(schedule: Schedule): void;
  passAll(): void;
  /** RSTs every client connection with no request in progress; returns how many. */
  resetIdle(): number;
  /** Resolves once no request is in flight; rejects after `timeoutMs` (default 5 s). */
  settled(timeoutMs?: number): Promise<void>;
  /** Empties the log and the counters (seq keeps counting). */
  clearLog(): void;
  /** Destroys every socket on both sides and stops every timer; resolves within about 2 s at most. */
  close(): Promise<void>;
}
