import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export interface Target {
  host?: string;
  port: number;
}

export interface UpstreamRequest {
  method: string;
  path: string;
  /** End-to-end headers in `rawHeaders` form; Host is kept, so the site builds URLs that point at the proxy. */
  headers: string[];
  body: Buffer;
  /** Whether the client's request had a body (so an empty one still gets `Content-Length: 0`). */
  hasBody: boolean;
}

export class UpstreamError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UpstreamError';
  }
}

/**
 * Sends one request to the site and resolves with its response head (the body still to read).
 * A kept-alive upstream socket the site closed while it was idle fails with no response at all; that
 * attempt never reached the site, so it is sent once more on a new connection (Node's own advice).
 */
export async function sendUpstream(
  agent: http.Agent,
  target: Target,
  request: UpstreamRequest,
  signal: AbortSignal,
  idleTimeoutMs: number,
): Promise<IncomingMessage> {
  try {
    return await attempt(agent, target, request, signal, idleTimeoutMs);
  } catch (error) {
    if (!(error instanceof StaleSocketError) || signal.aborted) throw error;
    return attempt(agent, target, request, signal, idleTimeoutMs);
  }
}

class StaleSocketError extends UpstreamError {}

function attempt(
  agent: http.Agent,
  target: Target,
  request: UpstreamRequest,
  signal: AbortSignal,
  idleTimeoutMs: number,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const headers = [...request.headers];
    if (request.hasBody || request.body.length > 0) headers.push('Content-Length', String(request.body.length));
    const upstream = http.request({
      agent,
      host: target.host ?? '127.0.0.1',
      port: target.port,
      method: request.method,
      path: request.path,
      headers,
      signal,
    });
    // Idle bound for the whole exchange, the response body included; Node drops it when the socket is freed.
    upstream.setTimeout(idleTimeoutMs, () =>
      upstream.destroy(new UpstreamError(`site silent for ${idleTimeoutMs} ms`)),
    );
    upstream.once('response', resolve);
    upstream.on('socket', heardOut);
    upstream.once('error', (error) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (upstream.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) {
        reject(new StaleSocketError('kept-alive socket closed by the site', { cause: error }));
      } else {
        reject(error instanceof UpstreamError ? error : new UpstreamError(error.message, { cause: error }));
      }
    });
    upstream.end(request.body.length > 0 ? request.body : undefined);
  });
}

/**
 * The site may answer before it has read the body (a 413 from the Content-Length) and close: the body's
 * write then fails (EPIPE) once the exchange has ended and the request no longer listens to its socket,
 * and an error nobody listens to ends the process. Such an error is the site's closing, said by its answer.
 */
const listened = new WeakSet<Socket>();
function heardOut(socket: Socket): void {
  if (listened.has(socket)) return;
  listened.add(socket);
  socket.on('error', () => {});
}
