import type http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { checkFault, FAULT_KINDS, type Fault, type FaultKind, type FaultLimits, type Schedule } from './faults.ts';
import { BodyTooLargeError, endToEndHeaders, errorText, readAll, sleep } from './http-util.ts';
import { sendReply } from './reply.ts';
import { PASS } from './schedules.ts';
import type { ProxyLogEntry } from './types.ts';
import { sendUpstream, type Target } from './upstream.ts';

export interface CoreConfig {
  limits: FaultLimits;
  target: Required<Target>;
  agent: http.Agent;
  upstreamTimeoutMs: number;
  maxBodyBytes: number;
  schedule: Schedule;
}

/** The proxy's state and its per-request logic; `proxy.ts` wires it to a server. */
export class ProxyCore {
  schedule: Schedule;
  readonly log: ProxyLogEntry[] = [];
  readonly counts = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
  /** Client sockets and how many requests each has in progress (0: idle). */
  readonly connections = new Map<Socket, { active: number }>();
  readonly inFlight = new Set<AbortController>();
  readonly stats = { connections: 0, idleResets: 0 };
  private seq = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly idleWaiters = new Set<() => void>();

  constructor(private readonly config: CoreConfig) {
    this.schedule = config.schedule;
  }

  /** A timer that `shutdown` clears. */
  later = (ms: number, fn: () => void): NodeJS.Timeout => {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
    return timer;
  };

  private cancel(timer: NodeJS.Timeout): void {
    clearTimeout(timer);
    this.timers.delete(timer);
  }

  accept(socket: Socket): void {
    this.stats.connections += 1;
    this.connections.set(socket, { active: 0 });
    socket.once('close', () => this.connections.delete(socket));
  }

  resetIdle(except?: Socket): number {
    let count = 0;
    for (const [socket, connection] of this.connections) {
      if (socket === except || connection.active > 0 || socket.destroyed) continue;
      socket.resetAndDestroy();
      count += 1;
    }
    this.stats.idleResets += count;
    return count;
  }

  settled(timeoutMs: number): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const wake = () => {
        this.idleWaiters.delete(wake);
        this.cancel(timer);
        resolve();
      };
      const timer = this.later(timeoutMs, () => {
        this.idleWaiters.delete(wake);
        reject(new Error(`fault proxy: ${this.inFlight.size} request(s) still in flight after ${timeoutMs} ms`));
      });
      this.idleWaiters.add(wake);
    });
  }

  clearLog(): void {
    this.log.length = 0;
    for (const kind of FAULT_KINDS) this.counts[kind] = 0;
  }

  /** Ends everything in flight (requests, timers, client sockets); resolves once every client socket has closed. */
  shutdown(): Promise<void> {
    for (const controller of this.inFlight) controller.abort(new Error('fault proxy closed'));
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const sockets = [...this.connections.keys()];
    const closed = sockets.map(
      (socket) => new Promise<void>((resolve) => (socket.closed ? resolve() : socket.once('close', () => resolve()))),
    );
    for (const socket of sockets) socket.destroy();
    for (const wake of [...this.idleWaiters]) wake();
    return Promise.all(closed).then(() => undefined);
  }

  private decide(seq: number, method: string, path: string): { fault: Fault; error?: string } {
    try {
      return { fault: checkFault(this.schedule({ seq, method, path }), this.config.limits) };
    } catch (error) {
      // A broken schedule must fail the test loudly, not pass silently.
      const message = `schedule failed: ${errorText(error)}`;
      return { fault: { kind: 'status', status: 500, message: `fault proxy ${message}` }, error: message };
    }
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { config } = this;
    const socket = req.socket;
    const connection = this.connections.get(socket);
    if (connection) connection.active += 1;
    const started = performance.now();
    const controller = new AbortController();
    const { signal } = controller;
    this.inFlight.add(controller);
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const seq = ++this.seq;

    let { fault, error } = this.decide(seq, method, path);
    this.counts[fault.kind] += 1;
    let idleResets: number | undefined;
    if (fault.kind === 'resetIdle') {
      idleResets = this.resetIdle(socket);
      fault = fault.then ?? PASS;
      this.counts[fault.kind] += 1;
    }
    const entry: ProxyLogEntry = { seq, method, path, fault, forwarded: false, done: false };
    if (idleResets !== undefined) entry.idleResets = idleResets;
    if (error) entry.error = error;
    this.log.push(entry);

    res.once('close', () => {
      if (connection) connection.active -= 1;
      this.inFlight.delete(controller);
      entry.outcome ??= res.writableFinished ? 'replied' : 'clientGone';
      if (!res.writableFinished) controller.abort(new Error('client connection closed'));
      entry.durationMs = performance.now() - started;
      entry.done = true;
      if (this.inFlight.size === 0) for (const wake of [...this.idleWaiters]) wake();
    });

    if (fault.kind === 'reset') {
      entry.outcome = 'reset';
      socket.resetAndDestroy();
      return;
    }
    if (fault.kind === 'stall') {
      const timer = this.later(fault.ms ?? config.limits.maxStallMs, () => {
        entry.outcome = 'stalled';
        socket.destroy();
      });
      signal.addEventListener('abort', () => this.cancel(timer), { once: true });
      return;
    }

    let body: Buffer;
    try {
      body = await readAll(req, config.maxBodyBytes);
    } catch (readError) {
      if (readError instanceof BodyTooLargeError) {
        entry.error = readError.message;
        replyJson(res, 413, 'fault proxy: request body too large');
      }
      return;
    }
    if (fault.kind === 'status') {
      replyJson(res, fault.status, fault.message ?? `Injected ${fault.status} by the fault proxy`, fault.retryAfter);
      return;
    }
    try {
      if (fault.kind === 'delay' && !fault.beforeReply) await sleep(fault.ms, signal);
      entry.forwarded = true;
      const upstream = await sendUpstream(
        config.agent,
        config.target,
        {
          method,
          path,
          headers: endToEndHeaders(req.rawHeaders, ['content-length', 'expect']),
          body,
          hasBody: req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined,
        },
        signal,
        config.upstreamTimeoutMs,
      );
      entry.upstreamStatus = upstream.statusCode;
      await sendReply({
        req,
        res,
        socket,
        upstream,
        fault,
        signal,
        maxBodyBytes: config.maxBodyBytes,
        later: this.later,
        // Set before any socket is destroyed, so the close handler doesn't take it for the client leaving.
        settle: (outcome) => (entry.outcome ??= outcome),
      });
    } catch (failure) {
      if (signal.aborted) return;
      entry.error = errorText(failure);
      entry.outcome ??= 'upstreamError';
      if (!res.headersSent) replyJson(res, 502, `fault proxy: site unreachable: ${entry.error}`);
      else socket.destroy();
    }
  }
}

function replyJson(res: ServerResponse, status: number, message: string, retryAfter?: number | string): void {
  const text = JSON.stringify({ message });
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
  };
  if (retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
  res.writeHead(status, headers).end(text);
}
