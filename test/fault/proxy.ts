import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ProxyCore } from './core.ts';
import { passAll } from './schedules.ts';
import type { FaultProxy, FaultProxyOptions } from './types.ts';

export type { Fault, FaultKind, Schedule, ScheduledRequest } from './faults.ts';
export type { Outcome } from './reply.ts';
export type { FaultProxy, FaultProxyOptions, ProxyLogEntry, ProxyStats } from './types.ts';
export type { Target } from './upstream.ts';
export { always, failFirst, onPaths, passAll, PASS, sequence } from './schedules.ts';
export { mulberry32, perRequestSchedule, seededSchedule } from './seeded.ts';
export type { FaultDraw, FaultRates, PerRequestOptions, SeededOptions } from './seeded.ts';

/**
 * A fault-injecting HTTP/1.1 proxy on 127.0.0.1 (OS-chosen port) in front of `options.target`.
 * Each request gets the fault its schedule returns; see `Fault` for what each one does.
 */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const core = new ProxyCore({
    limits: { maxDelayMs: options.maxDelayMs ?? 10_000, maxStallMs: options.maxStallMs ?? 10_000 },
    target: { host: options.target.host ?? '127.0.0.1', port: options.target.port },
    agent,
    upstreamTimeoutMs: options.upstreamTimeoutMs ?? 15_000,
    maxBodyBytes: options.maxBodyBytes ?? 64 * 1024 * 1024,
    schedule: options.schedule ?? passAll,
  });

  const server = http.createServer({ requestTimeout: 60_000, headersTimeout: 30_000 });
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5_000;
  server.on('connection', (socket: Socket) => core.accept(socket));
  // Malformed requests and connections the client reset: nothing to answer.
  server.on('clientError', (_error, socket) => socket.destroy());
  server.on('request', (req, res) => {
    core.handle(req, res).catch((error: unknown) => {
      res.socket?.destroy();
      console.error('fault proxy: unexpected error', error);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log: core.log,
    counts: core.counts,
    get stats() {
      return { ...core.stats, openConnections: core.connections.size, inFlight: core.inFlight.size };
    },
    requestsTo: (path, method) =>
      core.log.filter((entry) => {
        path.lastIndex = 0;
        return path.test(entry.path) && (!method || entry.method.toUpperCase() === method.toUpperCase());
      }),
    setSchedule: (schedule) => {
      core.schedule = schedule;
    },
    passAll: () => {
      core.schedule = passAll;
    },
    resetIdle: () => core.resetIdle(),
    settled: (timeoutMs = 5_000) => core.settled(timeoutMs),
    clearLog: () => core.clearLog(),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        // A bound in case a socket somehow outlives destroy(): close() must never hang a test.
        const fallback = setTimeout(resolve, 2_000);
        const serverClosed = new Promise<void>((done) => server.close(() => done()));
        const socketsClosed = core.shutdown();
        agent.destroy();
        void Promise.all([serverClosed, socketsClosed]).then(() => {
          clearTimeout(fallback);
          resolve();
        });
      })),
  };
}
