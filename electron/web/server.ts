import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import { Readable } from 'node:stream';
import { createAdaptorServer } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { streamSSE } from 'hono/streaming';
import { listenOn } from '../../server/listen.ts';
import {
  EVENTS_PATH,
  LAUNCH_HEADER,
  LAUNCH_PARAM,
  LAUNCH_ROUTE,
  MEDIA_DOWNLOAD_PARAM,
  MEDIA_LIVE_PARAM,
  MEDIA_OR_PARAM,
  MEDIA_ROUTE,
  READ_KEY_PARAM,
  RPC_PREFIX,
  rpcPath,
  SSE_EVENT,
  type AppEvent,
} from '../contract.ts';
import {
  APP_METHODS,
  mediaHeaders,
  policiesOf,
  SECURITY_HEADERS,
  type MediaAnswer,
  type Services,
} from '../core/services.ts';
import { ATTACHMENT_MAX_BYTES } from '../shared/limits.ts';

/** The launch secret (contract.ts): in the printed address, then a header the page (or a local tool) sends. */
export { LAUNCH_HEADER, LAUNCH_PARAM };

/** The read key of a launch secret: what event-stream and media addresses carry (`?key=`). */
export const readKeyOf = (secret: string): string =>
  createHmac('sha256', secret).update('fieldguide read key').digest('base64url');
/** App API bodies: arguments are small; a method declared `file` carries a photo, video or document as base64. */
const MAX_RPC_BODY = 1024 * 1024;
const MAX_ATTACH_BODY = Math.ceil((ATTACHMENT_MAX_BYTES * 4) / 3) + 64 * 1024;

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
  /** The launch secret (default: 32 random bytes made now). */
  secret?: string;
}

export interface RunningWebShell {
  /** The shell's origin, `http://127.0.0.1:PORT`. */
  url: string;
  /** The address to open: the origin with the launch secret, which the page trades for a cookie. */
  launchUrl: string;
  /** For callers on this machine that are not the page (tests, tools): send it as `LAUNCH_HEADER`. */
  secret: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The browser shell: the same App API as the Electron shell, as `POST rpcPath(method)` (one route per
 * method the core declares) and a server-sent event stream at `EVENTS_PATH`, plus the built renderer.
 * It listens on loopback only and refuses requests whose Host or Origin is not its own, so another web
 * page open in the same browser cannot drive it (CSRF, DNS rebinding). And the App API, its events and
 * the media answer only callers holding the secret made at launch: the page opened from the printed
 * address keeps it in its own origin's storage and sends it as a header (contract.ts, LAUNCH_HEADER).
 * Nothing of it is a cookie, which the browser would hand to any program listening on another port of
 * 127.0.0.1; another process or OS user on this machine does not have it.
 */
export function createWebShellApp(
  options: Omit<WebShellOptions, 'port' | 'host'> & { secret: string },
  ownHosts: () => Set<string>,
): Hono {
  const { services, staticDir, secret } = options;
  const app = new Hono();
  const expected = Buffer.from(secret);
  const same = (given: string | undefined, wanted: Buffer): boolean => {
    const bytes = Buffer.from(given ?? '');
    return bytes.length === wanted.length && timingSafeEqual(bytes, wanted);
  };
  const holds = (given: string | undefined): boolean => same(given, expected);
  const readKey = readKeyOf(secret);
  const reads = (given: string | undefined): boolean => same(given, Buffer.from(readKey));

  app.use('*', async (c, next) => {
    if (!ownHosts().has(c.req.header('host') ?? '')) return c.json({ message: 'Unknown host' }, 421);
    await next();
    // Every answer gets the app's headers; a media answer keeps its own, stricter policy (a sandbox).
    const ownPolicy = c.res.headers.has('Content-Security-Policy');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      if (!(ownPolicy && name === 'Content-Security-Policy')) c.header(name, value);
    }
  });

  // The printed address is the app's page like any other: the page takes the secret from it (src/bridge/launch.ts).
  // The App API needs the secret itself; the event stream and the media take the read key in their address.
  const notLaunched = (c: Context) =>
    c.json({ message: 'Open Fieldguide from the address the web shell printed when it started.' }, 401);
  for (const guarded of [`${RPC_PREFIX}*`, LAUNCH_ROUTE]) {
    app.use(guarded, async (c, next) => (holds(c.req.header(LAUNCH_HEADER)) ? next() : notLaunched(c)));
  }
  for (const guarded of [EVENTS_PATH, `${MEDIA_ROUTE}*`]) {
    app.use(guarded, async (c, next) =>
      holds(c.req.header(LAUNCH_HEADER)) || reads(c.req.query(READ_KEY_PARAM)) ? next() : notLaunched(c),
    );
  }
  app.post(LAUNCH_ROUTE, (c) =>
    sameOrigin(c, ownHosts()) ? c.json({ readKey }) : c.json({ message: 'Cross-origin calls are refused' }, 403),
  );
  // Arguments are small, but for an attached photo or video (base64): a body past its limit is refused unread.
  const carryFiles = new Set(APP_METHODS.filter((method) => policiesOf(method).file).map(rpcPath));
  app.use(`${RPC_PREFIX}*`, async (c, next) =>
    bodyLimit({
      maxSize: carryFiles.has(c.req.path) ? MAX_ATTACH_BODY : MAX_RPC_BODY,
      onError: (ctx) => ctx.json({ message: 'The request is too large' }, 413),
    })(c, next),
  );

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
      // Decoded once, from the raw path (the router's parameter is
      // decoded already: a second pass would change the address).
      url = decodeURIComponent(new URL(c.req.url).pathname.slice(MEDIA_ROUTE.length));
    } catch {
      return c.json({ message: 'Bad media address' }, 400);
    }
    const file = await services.openMedia({
      urls: [url, ...(c.req.queries(MEDIA_OR_PARAM) ?? [])],
      live: c.req.query(MEDIA_LIVE_PARAM) === '1',
    });
    if (!file) return c.json({ message: 'This media file is not on this computer' }, 404);
    const headers = {
      ...mediaHeaders(file, url, c.req.query(MEDIA_DOWNLOAD_PARAM) === '1'),
      'Cache-Control': CACHE[file.cache],
    };
    if (file.data) return c.body(new Uint8Array(file.data), 200, headers);
    return c.body(Readable.toWeb(fs.createReadStream(file.path)) as ReadableStream, 200, headers);
  });

  app.use('/*', serveStatic({ root: staticDir }));
  // The renderer routes in its own history: any other GET is the app shell.
  app.get('*', serveStatic({ root: staticDir, path: 'index.html' }));
  return app;
}

/**
 * How long the browser keeps a media answer: a stored copy for good, the site's for the session, a stand-in not at all.
 */
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
  const secret = options.secret ?? randomBytes(32).toString('base64url');
  const app = createWebShellApp({ ...options, secret }, () => hosts);
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  // A taken port rejects with a PortUnavailableError that says so (or moves to the next free port).
  const port = await listenOn(server, { port: options.port ?? 0, host, nextFree: options.nextFreePort ?? 0 });
  for (const name of [host, 'localhost', '127.0.0.1']) hosts.add(`${name}:${port}`);
  const url = `http://${host}:${port}`;
  return {
    url,
    launchUrl: `${url}/?${LAUNCH_PARAM}=${secret}`,
    secret,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
