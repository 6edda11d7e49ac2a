import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningSite } from '../../server/site.ts';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed JSON body, or undefined. */
  body: any;
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** One request on its own connection with the headers exactly as given (fetch will not send Host or Origin). */
export function rawRequest(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string; from?: string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // `from`: the source address (another loopback address plays another machine, 127.0.0.2 say).
    const source = options.from ? { localAddress: options.from } : {};
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        agent: false,
        headers: options.headers,
        ...source,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body: parse(text) });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

export interface StreamedAnswer extends RawAnswer {
  /** Body bytes the client had handed to the socket when the answer arrived (or when it gave up). */
  bytesSent: number;
}

/**
 * A request whose body of `total` bytes (`prefix`, then `fill` bytes, then `suffix`) is written 64 KiB at a
 * time, waiting for the socket to take each chunk, until the server answers: the answer may come long
 * before the body is sent. `declareLength`: with Content-Length (else chunked, with none).
 */
export function streamedRequest(
  port: number,
  options: {
    path: string;
    headers?: Record<string, string>;
    total: number;
    prefix?: string;
    suffix?: string;
    fill?: number;
    declareLength: boolean;
  },
): Promise<StreamedAnswer> {
  const prefix = Buffer.from(options.prefix ?? '');
  const suffix = Buffer.from(options.suffix ?? '');
  const middle = options.total - prefix.length - suffix.length;
  const chunk = Buffer.alloc(64 * 1024, options.fill ?? 0x61);
  return new Promise((resolve, reject) => {
    let bytesSent = 0;
    let answered = false;
    const headers: Record<string, string> = { ...options.headers };
    if (options.declareLength) headers['Content-Length'] = String(options.total);
    const request = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: options.path, agent: false, headers },
      (response) => {
        answered = true;
        const sentWhenAnswered = bytesSent;
        const chunks: Buffer[] = [];
        response.on('data', (data: Buffer) => chunks.push(data));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text,
            body: parse(text),
            bytesSent: sentWhenAnswered,
          });
          request.destroy();
        });
      },
    );
    // Once answered, a reset from the server closing the rest of the upload is expected.
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const write = (data: Buffer): Promise<void> =>
      new Promise((done) => {
        bytesSent += data.length;
        if (request.write(data)) return done();
        const go = () => {
          request.off('drain', go);
          request.off('close', go);
          done();
        };
        request.on('drain', go).on('close', go);
      });
    void (async () => {
      await write(prefix);
      let left = middle;
      while (left > 0 && !answered && !request.destroyed) {
        const size = Math.min(left, chunk.length);
        await write(size === chunk.length ? chunk : chunk.subarray(0, size));
        left -= size;
      }
      if (!answered && !request.destroyed) {
        await write(suffix);
        request.end();
      }
    })();
  });
}

export interface Counters {
  passwordChecks: number;
  bodyBytesRead: number;
}

/**
 * The site's counters (test hooks). A site without them (the code before issue 14) reads as NaN, so a
 * test runs its attack first and fails on what the server did, then on the counters.
 */
export async function counters(site: RunningSite): Promise<Counters> {
  const response = await fetch(`${site.url}/__test/counters`);
  if (response.status !== 200) return { passwordChecks: Number.NaN, bodyBytesRead: Number.NaN };
  return (await response.json()) as Counters;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** A program listening on another loopback port: an attacker's server, or another program's routes. */
export interface Listener {
  url: string;
  port: number;
  /** Every request it got, in order. */
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** Starts a Listener on 127.0.0.1 that answers every request with `answer` (an empty 200 by default). */
export async function startListener(answer: { type?: string; body?: string } = {}): Promise<Listener> {
  const requests: Listener['requests'] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    res.writeHead(200, answer.type ? { 'Content-Type': answer.type } : {}).end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
