import type { Context } from 'hono';
import type { AppEnv } from './env.ts';
import { HttpError } from './errors.ts';

/** JSON request bodies: the largest the API needs (a form's step data, a quiz attempt) is a few kB. */
export const MAX_JSON_BODY = 1024 * 1024;

const mib = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

export const bodyTooLarge = (limit: number, what = 'The request body'): HttpError =>
  new HttpError(413, `${what} is larger than ${mib(limit)}`);

/**
 * The request body, at most `limit` bytes (`what` names it in the 413). A `Content-Length` over the
 * limit is refused before a byte is read; a body without one (chunked) is counted as it streams in and
 * refused as soon as it passes the limit. What is left unread is the HTTP server's to discard
 * (@hono/node-server drains a little, then closes the connection); it never reaches memory here.
 */
export async function readBodyBytes(c: Context<AppEnv>, limit: number, what?: string): Promise<Buffer> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > limit) throw bodyTooLarge(limit, what);
  const body = c.req.raw.body;
  if (!body) return Buffer.alloc(0);
  const counters = c.get('counters');
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (counters) counters.bodyBytesRead += value.byteLength;
      // Not cancelled: cancelling would destroy the socket before the 413 is written.
      if (total > limit) throw bodyTooLarge(limit, what);
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks, total);
}
