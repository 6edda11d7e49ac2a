import type { Readable } from 'node:stream';

// Hop-by-hop headers describe one connection, not the message; each side of the proxy sets its own.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** `rawHeaders` (name, value, name, value...) without hop-by-hop headers and without `drop`. */
export function endToEndHeaders(rawHeaders: readonly string[], drop: readonly string[] = []): string[] {
  const dropped = new Set(drop.map((name) => name.toLowerCase()));
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || dropped.has(lower)) continue;
    out.push(name, rawHeaders[i + 1]!);
  }
  return out;
}

export class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`body larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * The whole stream in memory. Past `limit` bytes it keeps reading but drops the data, and rejects
 * with BodyTooLargeError at the end, so the connection stays usable for an answer. Rejects when the
 * stream errors or closes early.
 */
export function readAll(stream: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      stream.off('data', onData);
      if (error) reject(error);
      else if (size > limit) reject(new BodyTooLargeError(limit));
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
    };
    stream.on('data', onData);
    stream.once('end', () => finish());
    stream.once('error', (error) => finish(error));
    // 'close' without 'end' means the peer went away mid-body.
    stream.once('close', () => finish(new Error('stream closed before its end')));
  });
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts; never outlives either. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function errorText(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
