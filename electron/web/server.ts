import fs from 'node:fs';
import type { Server } from 'node:http';
import { Readable } from 'node:stream';
import { createAdaptorServer } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { listenOn } from '../../server/listen.ts';
import { APP_METHODS, EVENTS_PATH, MEDIA_LIVE_PARAM, MEDIA_OR_PARAM, MEDIA_ROUTE, RPC_PREFIX, rpcPath, SSE_EVENT, type AppEvent } from '../contract.ts';
import { SECURITY_HEADERS, type MediaAnswer, type Services } from '../core/services.ts';

export interface WebShellOptions {
  services: Services;
  /** The built renderer (`out/renderer`). */
  staticDir: string;
  port?: number;
  /** When `port` is taken, how many following ports to try (default 0: a taken port is an error). */
  nextFreePort?: number;
  host?: string;
  /** Seconds between keep-alive comments on the event stream. */
  heartbeatSeconds?: number;
}

export interface RunningWebShell {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The browser shell: the same App API as the Electron shell, as `POST rpcPath(method)` (one route per
 * method of the contract) and a server-sent event stream at `EVENTS_PATH`, plus the built renderer.
 * It listens on loopback only and refuses requests whose Host or Origin is not its own, so another web
 * page open in the same browser cannot drive it (CSRF, DNS rebinding).
 */
export function createWebShellApp(options: Omit<WebShellOptions, 'port' | 'host'>, ownHosts: () => Set<string>): Hono {
  const { services, staticDir } = options;
  const app = new Hono();

  app.use('*', async (c, next) => {
    if (!ownHosts().has(c.req.header('host') ?? '')) return c.json({ message: 'Unknown host' }, 421);
    await next();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value);
  });

  for (const method of APP_METHODS) {
    app.post(rpcPath(method), async (c) => {
      if (!sameOrigin(c, ownHosts())) return c.json({ message: 'Cross-origin calls are refused' }, 403);
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        return c.json({ message: 'The request body is not JSON' }, 400);
      }
      const args = body && typeof body === 'object' && 'args' in body ? body.args : undefined;
      return c.json(await services.invoke(method, args ?? []));
    });
  }
  app.all(`${RPC_PREFIX}*`, (c) => c.json({ message: 'No such App API method' }, 404));

  app.get(EVENTS_PATH, (c) =>
    streamSSE(c, async (stream) => {
      const queue: AppEvent[] = [];
      let wake: (() => void) | null = null;
      const unsubscribe = services.events.subscribe((event) => {
        queue.push(event);
        wake?.();
      });
      stream.onAbort(() => {
        unsubscribe();
        wake?.();
      });
      const heartbeat = (options.heartbeatSeconds ?? 15) * 1000;
      await stream.writeSSE({ event: 'ready', data: '{}' });
      while (!stream.aborted) {
        const event = queue.shift();
        if (event) {
          await stream.writeSSE({ event: SSE_EVENT, data: JSON.stringify(event) });
          continue;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, heartbeat);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
        if (queue.length === 0 && !stream.aborted) await stream.write(': keep-alive\n\n');
      }
      unsubscribe();
    }),
  );

  // Media by their site URL (`webMediaUrl(url, options)`): what the library has indexed, a picture from
  // its database or a file inside the media folder, or what services.openMedia may fetch from the site
  // for the address (only media the library knows), or a stored alternative the address names.
  app.get(`${MEDIA_ROUTE}:encoded`, async (c) => {
    let url: string;
    try {
      url = decodeURIComponent(c.req.param('encoded'));
    } catch {
      return c.json({ message: 'Bad media address' }, 400);
    }
    const file = await services.openMedia({ urls: [url, ...(c.req.queries(MEDIA_OR_PARAM) ?? [])], live: c.req.query(MEDIA_LIVE_PARAM) === '1' });
    if (!file) return c.json({ message: 'This media file is not on this computer' }, 404);
    const headers = { 'Content-Type': file.mime, 'Content-Length': String(file.bytes), 'Cache-Control': CACHE[file.cache] };
    if (file.data) return c.body(new Uint8Array(file.data), 200, headers);
    return c.body(Readable.toWeb(fs.createReadStream(file.path)) as ReadableStream, 200, headers);
  });

  app.use('/*', serveStatic({ root: staticDir }));
  // The renderer routes in its own history: any other GET is the app shell.
  app.get('*', serveStatic({ root: staticDir, path: 'index.html' }));
  return app;
}

/** How long the browser keeps a media answer: a stored copy for good, the site's for the session, a stand-in not at all. */
const CACHE: Record<MediaAnswer['cache'], string> = {
  immutable: 'private, max-age=31536000, immutable',
  private: 'private, max-age=3600',
  none: 'no-store',
};

function sameOrigin(c: Context, hosts: Set<string>): boolean {
  const origin = c.req.header('origin');
  if (origin === undefined) return true; // not a browser page: a test or a CLI on this machine
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && hosts.has(url.host);
  } catch {
    return false;
  }
}

export async function startWebShell(options: WebShellOptions): Promise<RunningWebShell> {
  const host = options.host ?? '127.0.0.1';
  const hosts = new Set<string>();
  const app = createWebShellApp(options, () => hosts);
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  // A taken port rejects with a PortUnavailableError that says so (or moves to the next free port).
  const port = await listenOn(server, { port: options.port ?? 0, host, nextFree: options.nextFreePort ?? 0 });
  for (const name of [host, 'localhost', '127.0.0.1']) hosts.add(`${name}:${port}`);
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
