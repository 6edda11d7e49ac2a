import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createApp, API_PREFIX } from './app.ts';
import { seedDemoContent } from './demo/seed.ts';
import { createContext, systemClock, type Clock } from './context.ts';
import { LOOPBACK_NAMES, hostMatcher, parseCorsOrigin } from './http/access.ts';
import { DEFAULT_SIGN_IN_THROTTLE, type SignInThrottleOptions } from './http/sign-in-throttle.ts';
import { listenOn } from './listen.ts';
import { MEDIA_PATH } from './http/site-switches.ts';
import { quietWrites } from './http/quiet-writes.ts';
import { noStatusFilter } from './http/no-status-filter.ts';
import { ownClock } from './http/own-clock.ts';
import { unsizedImages } from './http/unsized-images.ts';
import { slowWrites, type SlowWrites } from './http/slow-writes.ts';
import type { ServerModule } from './http/site-modules.ts';
import type { Dialect } from './http/dialects.ts';
import { openServerDb, seedOnce } from './db/open.ts';
import type { Db } from './db/types.ts';
import { seedDemoPeople, useDemoPassword } from './users/seed.ts';
import { checkRequests, requestCheckFromEnv } from './testing/request-check.ts';

export interface SiteOptions {
  /** 0 (the default) lets the OS choose a free port. */
  port?: number;
  /** When `port` is taken, how many following ports to try (default 0: a taken port is an error). */
  nextFreePort?: number;
  /** Default 127.0.0.1: the reference server is for this machine unless asked otherwise. */
  host?: string;
  /** Default ':memory:'. */
  dbFile?: string;
  /** The demo workshop (`startDemoSite` passes it with the demo seed): it also serves `/demo/change`. */
  demo?: boolean;
  testHooks?: boolean;
  /**
   * Fills a new database; skipped when the file was seeded before, so a persisted site keeps its state.
   * It runs outside any transaction: wrap what must be atomic, batch what is big.
   */
  seed?: (db: Db) => void;
  /** Runs on every start, after the seed and before the site listens. */
  prepare?: (db: Db) => void | Promise<void>;
  /**
   * Origins (`https://app.example.com`, exactly as browsers send them) whose web pages may call the site
   * (CORS); `*` for any. Default none: a page of another site gets no CORS grant, and a request that
   * carries its Origin is refused (403).
   */
  corsOrigins?: readonly string[];
  /**
   * Host names the site answers to besides its own (the loopback names and `host`): `name` at any port,
   * `name:port`, `[v6]`. Any other Host is a 421 (DNS rebinding: a page whose name now points here).
   * `'*'` turns the check off.
   */
  allowedHosts?: readonly string[] | '*';
  /**
   * The site's own names only at its own port (the app's demo workshop: nothing sits in front of it).
   * Default false, so a proxy on this machine may keep the Host it was asked with (the tests' fault proxy).
   */
  ownPortOnly?: boolean;
  /**
   * Failed sign-ins per account and client address, and per address, within a window (default 10 and 50
   * a minute); false: off.
   */
  signInThrottle?: Partial<SignInThrottleOptions> | false;
  /** Modules the site plays without: their endpoints answer 404 (`--without`). */
  without?: readonly ServerModule[];
  /** Guides readable without a token (default true, `--public`); false: members only, 401 without one. */
  publicReads?: boolean;
  /** Media served from a second listener on another loopback port, which guide JSON points at (a CDN). */
  mediaOrigin?: boolean;
  /** The dialect of API 2.0 it speaks (`--dialect`, http/dialect.ts); default `dozuki`. */
  dialect?: Dialect;
  /** Application ids an `ifixit` site takes at sign-in (`X-App-Id`); default DEMO_APP_ID. */
  appIds?: readonly string[];
  /**
   * The site's clock (its `Date` header, the times it records). Default: the machine's; `systemClock(3600)`
   * plays a node an hour ahead (`--clock-offset`), and a test may pass a clock it moves itself.
   */
  clock?: Clock;
  /** A slow site: starts and uploads are applied `ms` late, whether the client waited or not (`--slow-writes`). */
  slowWrites?: SlowWrites;
  /** Work-log saves and transitions without a public answer shape are answered with no body (http/quiet-writes.ts). */
  quietWrites?: boolean;
  /** The work log on the site's own clock: a write's `timestamp` is not known there (http/own-clock.ts). */
  ownClock?: boolean;
  /** Its work-log list knows no `status` filter: handed-over entries are asked per guide (http/no-status-filter.ts). */
  noStatusFilter?: boolean;
  /** Every image of a JSON answer without its resized variants: id, guid and original (http/unsized-images.ts). */
  unsizedImages?: boolean;
  /**
   * Why this site's requests are not held to iFixit's description when the tests' request check is on
   * (FIELDGUIDE_OPENAPI_CHECK, testing/request-check.ts): a site a test sends malformed requests to on purpose.
   */
  uncheckedBecause?: string;
}

export interface RunningSite {
  /** The site address (`http://127.0.0.1:PORT`), what a technician types; the API is at `apiUrl`. */
  url: string;
  apiUrl: string;
  port: number;
  /** The media origin (`http://127.0.0.1:OTHER`) when `mediaOrigin` was asked, else null. */
  mediaUrl: string | null;
  db: Db;
  close(): Promise<void>;
}

export async function startSite(options: SiteOptions = {}): Promise<RunningSite> {
  const host = options.host ?? '127.0.0.1';
  const dbFile = options.dbFile ?? ':memory:';
  const db = openServerDb(dbFile);
  let server: Server | undefined;
  let media: Server | undefined;
  let mediaUrl: string | null = null;
  try {
    if (options.seed) seedOnce(db, dbFile, options.demo ? 'demo' : 'custom', options.seed);
    await options.prepare?.(db);
    let ownPort = 0;
    const ctx = createContext(
      db,
      {
        testHooks: options.testHooks ?? false,
        access: {
          corsOrigins: (options.corsOrigins ?? []).map(parseCorsOrigin),
          hostAllowed: hostMatcher({
            allowed: options.allowedHosts ?? [],
            ownNames: ownNames(host),
            ownPortOnly: options.ownPortOnly ?? false,
            ownPort: () => ownPort,
          }),
        },
        signInThrottle: throttleOptions(options.signInThrottle),
        without: options.without ?? [],
        publicReads: options.publicReads ?? true,
        mediaOrigin: () => mediaUrl,
        dialect: options.dialect ?? 'dozuki',
        demo: options.demo ?? false,
        ...(options.appIds ? { appIds: options.appIds } : {}),
      },
      options.clock ?? systemClock(),
    );
    const app = createApp(ctx);
    const check = options.uncheckedBecause ? null : requestCheckFromEnv();
    const sized = options.unsizedImages ? unsizedImages(app.fetch) : app.fetch;
    const quiet = options.quietWrites ? quietWrites(sized) : sized;
    // Inside the slow site: a late start is recorded when it is applied.
    const clocked = options.ownClock ? ownClock(quiet) : quiet;
    const answered = options.noStatusFilter ? noStatusFilter(clocked) : clocked;
    const slow = options.slowWrites ? slowWrites(answered, options.slowWrites) : answered;
    const fetch = check ? await checkRequests(slow, check, API_PREFIX, options.dialect ?? 'dozuki') : slow;
    server = createAdaptorServer({ fetch }) as Server;
    ownPort = await listenOn(server, { port: options.port ?? 0, host, nextFree: options.nextFreePort ?? 0 });
    if (options.mediaOrigin) {
      // The "CDN": the same files, and nothing but files, from another port (another origin).
      media = createAdaptorServer({
        // It refuses a request carrying credentials: a client must never send the site's token to another origin.
        fetch: (request: Request) =>
          request.headers.has('Authorization')
            ? new Response('Credentials sent to another origin', { status: 400 })
            : MEDIA_PATH.test(new URL(request.url).pathname)
              ? app.fetch(request)
              : new Response('Not found', { status: 404 }),
      }) as Server;
      const mediaPort = await listenOn(media, { port: 0, host, nextFree: 0 });
      mediaUrl = `http://${host.includes(':') ? `[${host}]` : host}:${mediaPort}`;
    }
  } catch (error) {
    media?.close();
    server?.close();
    db.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const running = server;
  const mediaServer = media;
  let closing: Promise<void> | undefined;
  return {
    url,
    apiUrl: url + API_PREFIX,
    port,
    mediaUrl,
    db,
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        if (mediaServer) {
          mediaServer.close();
          mediaServer.closeAllConnections();
        }
        running.close((error) => {
          db.close();
          if (error) reject(error);
          else resolve();
        });
        // Keep-alive sockets would hold close() open until they time out.
        running.closeAllConnections();
      })),
  };
}

/** The address the server listens on and the loopback names: what a client on this machine calls it. */
function ownNames(host: string): string[] {
  const names = [...LOOPBACK_NAMES];
  // A wildcard address is no name: a server on 0.0.0.0 is reached by names given in allowedHosts.
  if (host !== '0.0.0.0' && host !== '::' && host !== '') names.push(host.includes(':') ? `[${host}]` : host);
  return names;
}

function throttleOptions(given: SiteOptions['signInThrottle']): SignInThrottleOptions | null {
  if (given === false) return null;
  const options = { ...DEFAULT_SIGN_IN_THROTTLE, ...given };
  for (const [name, value] of Object.entries(options)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new Error(`signInThrottle.${name} must be a whole number of at least 1, got ${value}`);
  }
  return options;
}

/** The demo workshop: its people, then its content. A persisted `dbFile` with data is opened as it is. */
export async function startDemoSite(
  options: Pick<
    SiteOptions,
    | 'dbFile'
    | 'port'
    | 'nextFreePort'
    | 'host'
    | 'testHooks'
    | 'corsOrigins'
    | 'allowedHosts'
    | 'ownPortOnly'
    | 'signInThrottle'
    | 'without'
    | 'publicReads'
    | 'mediaOrigin'
    | 'dialect'
    | 'appIds'
    | 'clock'
    | 'slowWrites'
    | 'quietWrites'
    | 'ownClock'
    | 'noStatusFilter'
    | 'unsizedImages'
    | 'uncheckedBecause'
  > & {
    /** The demo's media files (resources/demo); a packaged app passes its own copy. */
    assetDir?: string;
    /**
     * The password of every demo account, instead of the documented `fieldguide` (DEMO_ACCOUNTS). Given,
     * it also replaces the password of a site seeded before with another one.
     */
    demoPassword?: string;
  } = {},
): Promise<RunningSite> {
  const { assetDir, demoPassword, ...site } = options;
  return startSite({
    ...site,
    demo: true,
    seed: (db) =>
      db.transaction(() => {
        seedDemoPeople(db, demoPassword === undefined ? {} : { password: demoPassword });
        seedDemoContent(db, assetDir ? { assetDir } : {});
      })(),
    ...(demoPassword === undefined ? {} : { prepare: (db: Db) => useDemoPassword(db, demoPassword) }),
  });
}
