import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { mulberry32 } from './seeded.ts';

/**
 * A link emulator for tests and benchmarks: a TCP relay on 127.0.0.1 in front of a loopback server that
 * plays a workshop's Wi-Fi or LTE link. Each direction is one queue at the set rate, shared by every
 * connection (the link is the bottleneck, not each socket); every chunk also waits the one-way delay;
 * a new connection costs one round trip before its first byte (the TCP handshake). Optionally a seeded
 * fraction of connections is reset partway through an answer.
 *
 * It only ever listens on and connects to 127.0.0.1, and every socket is closed by `close()`.
 */
export interface LinkOptions {
  /** The server behind the link (127.0.0.1). */
  targetPort: number;
  /** Round-trip time in ms (each direction waits half). */
  rttMs: number;
  /** Rate per direction in Mbit/s; 0 for no limit. */
  mbitPerSec: number;
  /** Fraction of connections reset partway through the server's answer (0 by default). */
  resetRate?: number;
  seed?: number;
  /** Told each request line a client sends (HTTP/1.1), with the number of the connection it came on (from 1). */
  onRequest?: (connection: number, method: string, target: string) => void;
}

export interface LinkStats {
  connections: number;
  resets: number;
  bytesDown: number;
  bytesUp: number;
}

export interface Link {
  port: number;
  url: string;
  stats: LinkStats;
  /** The bytes waiting on the link towards the client now (what an answer sent now waits behind). */
  queuedDown(): number;
  close(): Promise<void>;
}

/**
 * One direction of the link: a queue served at `bytesPerMs`, then the one-way delay. Pure, so its times
 * can be checked without a clock: `schedule` answers when a chunk handed over at `now` is delivered.
 */
export class LinkQueue {
  #freeAt = 0;

  constructor(
    private readonly bytesPerMs: number,
    private readonly delayMs: number,
  ) {}

  /** The bytes handed over and not yet sent at `now`: the queue a new chunk waits behind. */
  backlog(now: number): number {
    return Math.max(0, this.#freeAt - now) * this.bytesPerMs;
  }

  schedule(bytes: number, now: number): number {
    const start = Math.max(now, this.#freeAt);
    const sent = this.bytesPerMs > 0 ? start + bytes / this.bytesPerMs : start;
    this.#freeAt = sent;
    return sent + this.delayMs;
  }
}

/** Largest piece the link sends at once: finer pieces share the rate fairly between connections. */
const PIECE = 16 * 1024;
/** A side stops reading while this much of it is on the link (backpressure, bounded memory). */
const IN_FLIGHT_MAX = 256 * 1024;

export async function startLink(options: LinkOptions): Promise<Link> {
  const bytesPerMs = options.mbitPerSec > 0 ? (options.mbitPerSec * 1e6) / 8 / 1000 : 0;
  const oneWay = options.rttMs / 2;
  const up = new LinkQueue(bytesPerMs, oneWay);
  const down = new LinkQueue(bytesPerMs, oneWay);
  const random = mulberry32(options.seed ?? 1);
  const stats: LinkStats = { connections: 0, resets: 0, bytesDown: 0, bytesUp: 0 };
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (at: number, run: () => void): void => {
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        run();
      },
      Math.max(0, at - performance.now()),
    );
    timers.add(timer);
  };

  /**
   * Carries `from`'s bytes to `to` through `queue`, counting them; with `resetAfter`, resets both sides past that many.
   */
  const carry = (
    from: net.Socket,
    to: net.Socket,
    queue: LinkQueue,
    count: (n: number) => void,
    resetAfter: number | null,
  ): void => {
    // Pieces on the link in order, each with its delivery time; one timer, for the head (timers of
    // different lengths may fire out of order, so each piece cannot have its own).
    const onLink: { at: number; piece: Buffer | null }[] = [];
    let bytesOnLink = 0;
    let carried = 0;
    let armed = false;
    const deliver = (): void => {
      armed = false;
      const now = performance.now();
      while (onLink.length > 0 && onLink[0]!.at <= now + 0.5) {
        const { piece } = onLink.shift()!;
        if (piece === null) {
          if (!to.destroyed) to.end();
          continue;
        }
        bytesOnLink -= piece.length;
        if (to.destroyed) continue;
        carried += piece.length;
        count(piece.length);
        if (resetAfter !== null && carried >= resetAfter) {
          stats.resets++;
          to.resetAndDestroy();
          from.resetAndDestroy();
          return;
        }
        to.write(piece);
      }
      if (from.isPaused() && bytesOnLink < IN_FLIGHT_MAX && !from.destroyed) from.resume();
      arm();
    };
    const arm = (): void => {
      if (armed || onLink.length === 0) return;
      armed = true;
      later(onLink[0]!.at, deliver);
    };
    from.on('data', (data: Buffer) => {
      for (let offset = 0; offset < data.length; offset += PIECE) {
        const piece = data.subarray(offset, offset + PIECE);
        bytesOnLink += piece.length;
        onLink.push({ at: queue.schedule(piece.length, performance.now()), piece });
      }
      if (bytesOnLink >= IN_FLIGHT_MAX) from.pause();
      arm();
    });
    from.on('end', () => {
      onLink.push({ at: onLink.at(-1)?.at ?? performance.now(), piece: null });
      arm();
    });
  };

  const server = net.createServer((client) => {
    stats.connections++;
    sockets.add(client);
    client.pause();
    if (options.onRequest) watchRequests(client, stats.connections, options.onRequest);
    const reset = options.resetRate && random() < options.resetRate ? 1 + Math.floor(random() * 64 * 1024) : null;
    // The handshake: one round trip before the connection carries anything.
    later(performance.now() + options.rttMs, () => {
      if (client.destroyed) return;
      const upstream = net.connect({ host: '127.0.0.1', port: options.targetPort });
      sockets.add(upstream);
      const drop = (): void => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      upstream.once('connect', () => {
        carry(client, upstream, up, (n) => (stats.bytesUp += n), null);
        carry(upstream, client, down, (n) => (stats.bytesDown += n), reset);
        client.resume();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    stats,
    queuedDown: () => down.backlog(performance.now()),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const REQUEST_LINE = /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (\S+) HTTP\/1\.1$/;

/** Tells each request line the client sends on this connection (a line split between chunks is joined first). */
function watchRequests(client: net.Socket, connection: number, told: NonNullable<LinkOptions['onRequest']>): void {
  let partial = '';
  client.on('data', (data: Buffer) => {
    const lines = (partial + data.toString('latin1')).split('\r\n');
    partial = lines.pop()!.slice(-2048);
    for (const line of lines) {
      const match = REQUEST_LINE.exec(line);
      if (match) told(connection, match[1]!, match[2]!);
    }
  });
}
