import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import zlib from 'node:zlib';
import { cutLength, type Fault } from './faults.ts';
import { endToEndHeaders, readAll, sleep } from './http-util.ts';

/** How an exchange ended, as the client saw it. */
export type Outcome =
  | 'replied' // the whole response, the site's or an injected one
  | 'reset' // RST before any byte of the response
  | 'dropped' // the site answered, the client got an RST instead
  | 'cut' // head and part of the body, then the connection closed
  | 'stalled' // nothing, then the connection closed
  | 'clientGone' // the client closed first
  | 'upstreamError'; // the site failed: a 502, or a reply cut where the site stopped

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  socket: Socket;
  upstream: IncomingMessage;
  fault: Fault;
  signal: AbortSignal;
  maxBodyBytes: number;
  later: (ms: number, fn: () => void) => void;
  settle: (outcome: Outcome) => void;
}

// A cut reply half-closes so the partial bytes reach the client before the FIN; this bounds the wait
// for the client's side of the close.
const CUT_LINGER_MS = 1_000;

/** Relays the site's response to the client the way `fault` says. */
export async function sendReply(x: Exchange): Promise<void> {
  const { fault } = x;
  switch (fault.kind) {
    case 'dropResponse':
      // Read it all: the site has finished (and committed) before the client loses the answer.
      await readAll(x.upstream, x.maxBodyBytes);
      x.settle('dropped');
      x.socket.resetAndDestroy();
      return;
    case 'cutBody':
      return cut(x, fault);
    case 'rewrite':
      return rewrite(x, fault);
    case 'delay': {
      if (!fault.beforeReply) return relay(x);
      // Read first, so the wait can't trip the upstream idle timeout.
      const body = await readAll(x.upstream, x.maxBodyBytes);
      await sleep(fault.ms, x.signal);
      x.res
        .writeHead(x.upstream.statusCode ?? 502, x.upstream.statusMessage, endToEndHeaders(x.upstream.rawHeaders))
        .end(body);
      return;
    }
    default:
      return relay(x);
  }
}

function relay(x: Exchange): Promise<void> {
  const { upstream, res } = x;
  res.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, endToEndHeaders(upstream.rawHeaders));
  return new Promise((resolve) => {
    upstream.once('close', () => {
      if (upstream.complete) return;
      // The site stopped mid-body: pass the failure on rather than end the reply short but "complete".
      x.settle('upstreamError');
      x.socket.destroy();
      resolve();
    });
    res.once('close', () => resolve());
    upstream.pipe(res);
  });
}

async function cut(x: Exchange, fault: Extract<Fault, { kind: 'cutBody' }>): Promise<void> {
  const { upstream, res, socket } = x;
  const body = await readAll(upstream, x.maxBodyBytes);
  const status = upstream.statusCode ?? 502;
  if (x.req.method === 'HEAD' || status === 204 || status === 304) {
    // No body to cut: the nearest failure is losing the reply.
    x.settle('reset');
    socket.resetAndDestroy();
    return;
  }
  // An empty body can't be shortened; chunked framing without its last chunk is cut all the same.
  const headers = endToEndHeaders(upstream.rawHeaders, body.length === 0 ? ['content-length'] : []);
  x.settle('cut');
  res.writeHead(status, upstream.statusMessage, headers);
  const keep = cutLength(fault, body.length);
  if (keep > 0) res.write(body.subarray(0, keep));
  else res.flushHeaders();
  socket.end();
  x.later(CUT_LINGER_MS, () => socket.destroy());
}

/** The site's answer with its body changed (decompressed first, sent as plain text with its own length). */
async function rewrite(x: Exchange, fault: Extract<Fault, { kind: 'rewrite' }>): Promise<void> {
  const { upstream } = x;
  const raw = await readAll(upstream, x.maxBodyBytes);
  const encoding = String(upstream.headers['content-encoding'] ?? '').toLowerCase();
  const decoded =
    encoding === 'gzip'
      ? zlib.gunzipSync(raw)
      : encoding === 'deflate'
        ? zlib.inflateSync(raw)
        : encoding === 'br'
          ? zlib.brotliDecompressSync(raw)
          : raw;
  const body = Buffer.from(fault.body(decoded.toString('utf8')), 'utf8');
  const headers = endToEndHeaders(upstream.rawHeaders, ['content-length', 'content-encoding']);
  x.res.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, [
    ...headers,
    'Content-Length',
    String(body.length),
  ]);
  x.res.end(body);
}
