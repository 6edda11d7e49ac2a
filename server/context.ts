import type { Db } from './db/types.ts';
import { LOOPBACK_NAMES, hostMatcher, type AccessPolicy } from './http/access.ts';
import { DEFAULT_SIGN_IN_THROTTLE, SignInThrottle, type SignInThrottleOptions } from './http/sign-in-throttle.ts';
import type { ServerModule } from './http/site-modules.ts';
import { DEMO_APP_ID, type Dialect } from './http/dialects.ts';

export interface ServerOptions {
  /** Serve `/__test/*` (audit log, settable clock, counters) and record every applied mutation. */
  readonly testHooks: boolean;
  /** CORS origins and the Host allow-list (http/access.ts). Default: no CORS, loopback names only. */
  readonly access: AccessPolicy;
  /** Failed sign-ins per account and address, and per address (http/sign-in-throttle.ts); null: off. Default: on. */
  readonly signInThrottle: SignInThrottleOptions | null;
  /** Modules the site plays without (`--without`): their endpoints answer 404. Default none. */
  readonly without: readonly ServerModule[];
  /** Guides and media readable without a token (`--public`, the default); false: a members-only site (401). */
  readonly publicReads: boolean;
  /** The origin media addresses point at (a second listener, `--media-origin`); null: the site's own. */
  readonly mediaOrigin: () => string | null;
  /** The dialect of API 2.0 the site speaks (http/dialects.ts). Default `dozuki`, the seed's. */
  readonly dialect: Dialect;
  /** The application ids an `ifixit` site accepts in `X-App-Id` when signing in. Default: DEMO_APP_ID. */
  readonly appIds: readonly string[];
  /** The demo workshop's site: it also serves the demo's own pages (`/demo/change`). Default false. */
  readonly demo: boolean;
}

/** Unix seconds. Under test hooks a fixed time can be set; `null` returns to the real clock. */
export interface Clock {
  now(): number;
  set(fixed: number | null): void;
}

/** What the server did, for tests to see work that left no other trace (`GET /__test/counters`). */
export interface ServerCounters {
  /** Passwords checked with scrypt (every sign-in that got that far). */
  passwordChecks: number;
  /** Request body bytes read by routes (JSON and uploads). */
  bodyBytesRead: number;
}

export interface ServerContext {
  readonly db: Db;
  readonly clock: Clock;
  readonly options: ServerOptions;
  readonly counters: ServerCounters;
  /** null when `options.signInThrottle` is. */
  readonly signInThrottle: SignInThrottle | null;
}

/** The machine's clock, `offsetSeconds` off (a node of a site whose clock is wrong: `--clock-offset`). */
export function systemClock(offsetSeconds = 0): Clock {
  let fixed: number | null = null;
  return {
    now: () => fixed ?? Math.floor(Date.now() / 1000) + offsetSeconds,
    set(value) {
      fixed = value;
    },
  };
}

/** No CORS; the loopback names at any port. */
export const DEFAULT_ACCESS: AccessPolicy = {
  corsOrigins: [],
  hostAllowed: hostMatcher({ allowed: [], ownNames: LOOPBACK_NAMES, ownPortOnly: false, ownPort: () => 0 }),
};

export function createContext(
  db: Db,
  options: Partial<ServerOptions> = {},
  clock: Clock = systemClock(),
): ServerContext {
  const signInThrottle = options.signInThrottle === undefined ? DEFAULT_SIGN_IN_THROTTLE : options.signInThrottle;
  return {
    db,
    clock,
    options: {
      testHooks: options.testHooks ?? false,
      access: options.access ?? DEFAULT_ACCESS,
      signInThrottle,
      without: options.without ?? [],
      publicReads: options.publicReads ?? true,
      mediaOrigin: options.mediaOrigin ?? (() => null),
      dialect: options.dialect ?? 'dozuki',
      appIds: options.appIds ?? [DEMO_APP_ID],
      demo: options.demo ?? false,
    },
    counters: { passwordChecks: 0, bodyBytesRead: 0 },
    signInThrottle: signInThrottle ? new SignInThrottle(signInThrottle) : null,
  };
}
