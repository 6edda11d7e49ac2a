import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { checkFault, FAULT_KINDS, type Fault, type FaultKind, type FaultLimits, type Schedule } from './faults.ts';
import { BodyTooLargeError, endToEndHeaders, errorText, readAll, sleep } from './http-util.ts';
import { sendReply, type Exchange, type Outcome } from './reply.ts';
import { PASS, passAll } from './schedules.ts';
import { sendUpstream, type Target } from './upstream.ts';

export type { Fault, FaultKind, Schedule, ScheduledRequest } from './faults.ts';
export type { Outcome } from './reply.ts';
export type { Target } from './upstream.ts';
export { always, failFirst, mulberry32, onPaths, passAll, seededSchedule, sequence, type FaultRates, type SeededOptions } from './schedules.ts';

export interface FaultProxyOptions {
  /** The site to forward to, e.g. `{ port: site.port }`; host defaults to 127.0.0.1. */
  target: Target;
  /** Default: everything passes. */
  schedule?: Schedule;
  /** Cap on `delay` faults. Default 10 s. */
  maxDelayMs?: number;
  /** Cap on `stall` faults, and their duration when they name none. Default 10 s. */
  maxStallMs?: number;
  /** The site may stay silent this long before the proxy gives up (502, or a cut reply). Default 15 s. */
  upstreamTimeoutMs?: number;
  /** Idle client keep-alive connections close after this. Default 5 s, like Node's server. */
  keepAliveTimeoutMs?: number;
  /** Request and buffered response bodies larger than this are refused. Default 64 MiB. */
  maxBodyBytes?: number;
}

export interface ProxyLogEntry {
  seq: number;
  method: string;
  /** Request target with its query, as the client sent it. */
  path: string;
  /** The fault applied (after `resetIdle`, its `then`); durations already capped. */
  fault: Fault;
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
  /** Connections open now. */
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
  /** Faults applied, by kind; a `resetIdle` with `then` counts both kinds. */
  readonly counts: Readonly<Record<FaultKind, number>>;
  readonly stats: Readonly<ProxyStats>;
  requestsTo(path: RegExp, method?: string): ProxyLogEntry[];
  setSchedule(schedule: Schedule): void;
  passAll(): void;
  /** RSTs every client connection with no request in progress; returns how many. */
  resetIdle(): number;
  /** Resolves once no request is in flight; rejects after `timeoutMs` (default 5 s). */
  settled(timeoutMs?: number): Promise<void>;
  /** Empties the log and the counters (seq keeps counting). */
  clearLog(): void;
  /** Destroys every socket, both sides, and stops every timer. */
  close(): Promise<void>;
}

interface Connection {
  active: number;
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const limits: FaultLimits = { maxDelayMs: options.maxDelayMs ?? 10_000, maxStallMs: options.maxStallMs ?? 10_000 };
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? 15_000;
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024 * 1024;
  const target = { host: options.target.host ?? '127.0.0.1', port: options.target.port };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  let schedule = options.schedule ?? passAll;
  let seq = 0;
  let closed = false;
  const log: ProxyLogEntry[] = [];
  const counts = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
  const connections = new Map<Socket, Connection>();
  const inFlight = new Set<AbortController>();
  const timers = new Set<NodeJS.Timeout>();
  const idleWaiters = new Set<() => void>();
  const stats = { connections: 0, idleResets: 0 };

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
    return timer;
  };

  const resetIdle = (except?: Socket): number => {
    let count = 0;
    for (const [socket, connection] of connections) {
      if (socket === except || connection.active > 0 || socket.destroyed) continue;
      socket.resetAndDestroy();
      count += 1;
    }
    stats.idleResets += count;
    return count;
  };

  const server = http.createServer({ requestTimeout: 60_000, headersTimeout: 30_000 });
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5_000;
  server.on('connection', (socket: Socket) => {
    stats.connections += 1;
    connections.set(socket, { active: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  // Malformed or reset client connections: nothing to answer.
  server.on('clientError', (_error, socket) => socket.destroy());
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    void handle(req, res).catch((error: unknown) => {
      res.socket?.destroy();
      console.error('fault proxy: unexpected error', error);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const socket = req.socket;
    const connection = connections.get(socket);
    if (connection) connection.active += 1;
    const started = performance.now();
    const controller = new AbortController();
    inFlight.add(controller);
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const n = ++seq;

    let fault: Fault;
    let scheduleError: string | undefined;
    try {
      fault = checkFault(schedule({ seq: n, method, path }), limits);
    } catch (error) {
      // A broken schedule must fail the test loudly, not pass silently.
      scheduleError = `schedule failed: ${errorText(error)}`;
      fault = { kind: 'status', status: 500, message: `fault proxy ${scheduleError}` };
    }
    counts[fault.kind] += 1;
    if (fault.kind === 'resetIdle') {
      resetIdle(socket);
      fault = fault.then ?? PASS;
      counts[fault.kind] += fault.kind === 'pass' ? 0 : 1;
    }
    const entry: ProxyLogEntry = { seq: n, method, path, fault, forwarded: false, done: false };
    if (scheduleError) entry.error = scheduleError;
    log.push(entry);

    res.once('close', () => {
      if (connection) connection.active -= 1;
      inFlight.delete(controller);
      if (!res.writableFinished) controller.abort(new Error('client connection closed'));
      entry.outcome ??= res.writableFinished ? 'replied' : 'clientGone';
      entry.durationMs = performance.now() - started;
      entry.done = true;
      if (inFlight.size === 0) for (const wake of [...idleWaiters]) wake();
    });

    if (fault.kind === 'reset') {
      entry.outcome = 'reset';
      socket.resetAndDestroy();
      return;
    }
    if (fault.kind === 'stall') {
      const timer = later(fault.ms ?? limits.maxStallMs, () => {
        entry.outcome = 'stalled';
        socket.destroy();
      });
      controller.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        timers.delete(timer);
      });
      return;
    }

    let body: Buffer;
    try {
      body = await readAll(req, maxBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        entry.error = error.message;
        replyJson(res, 413, 'fault proxy: request body too large');
      }
      return;
    }
    if (fault.kind === 'status') {
      replyJson(res, fault.status, fault.message ?? `Injected ${fault.status} by the fault proxy`, fault.retryAfter);
      return;
    }
    const { signal } = controller;
    try {
      if (fault.kind === 'delay' && !fault.beforeReply) await sleep(fault.ms, signal);
      entry.forwarded = true;
      const upstream = await sendUpstream(
        agent,
        target,
        {
          method,
          path,
          headers: endToEndHeaders(req.rawHeaders, ['content-length', 'expect']),
          body,
          hasBody: req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined,
        },
        signal,
        upstreamTimeoutMs,
      );
      entry.upstreamStatus = upstream.statusCode;
      const exchange: Exchange = {
        req,
        res,
        socket,
        upstream,
        fault,
        signal,
        maxBodyBytes,
        later,
        // Set before any socket is destroyed: the close handler must not mistake it for the client leaving.
        settle: (outcome) => (entry.outcome ??= outcome),
      };
      await sendReply(exchange);
    } catch (error) {
      if (signal.aborted) return;
      entry.error = errorText(error);
      entry.outcome = 'upstreamError';
      if (!res.headersSent) replyJson(res, 502, `fault proxy: site unreachable: ${entry.error}`);
      else socket.destroy();
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    counts,
    get stats() {
      return { ...stats, openConnections: connections.size, inFlight: inFlight.size };
    },
    requestsTo: (path, method) =>
      log.filter((entry) => {
        path.lastIndex = 0;
        return path.test(entry.path) && (!method || entry.method.toUpperCase() === method.toUpperCase());
      }),
    setSchedule(next) {
      schedule = next;
    },
    passAll() {
      schedule = passAll;
    },
    resetIdle: () => resetIdle(),
    settled(timeoutMs = 5_000) {
      if (inFlight.size === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const wake = () => {
          idleWaiters.delete(wake);
          clearTimeout(timer);
          timers.delete(timer);
          resolve();
        };
        const timer = later(timeoutMs, () => {
          idleWaiters.delete(wake);
          reject(new Error(`fault proxy: ${inFlight.size} request(s) still in flight after ${timeoutMs} ms`));
        });
        idleWaiters.add(wake);
      });
    },
    clearLog() {
      log.length = 0;
      for (const kind of FAULT_KINDS) counts[kind] = 0;
    },
    close() {
      return (closing ??= new Promise<void>((resolve) => {
        closed = true;
        const done = setTimeout(resolve, 2_000);
        server.close(() => {
          clearTimeout(done);
          resolve();
        });
        for (const controller of inFlight) controller.abort(new Error('fault proxy closed'));
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        for (const socket of connections.keys()) socket.destroy();
        agent.destroy();
        for (const wake of [...idleWaiters]) wake();
      }));
    },
  };

  function replyJson(res: ServerResponse, status: number, message: string, retryAfter?: number | string): void {
    const text = JSON.stringify({ message });
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(text)),
    };
    if (retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
    if (closed) headers.Connection = 'close';
    res.writeHead(status, headers).end(text);
  }
}
