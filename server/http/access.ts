import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { HttpError } from './errors.ts';

/**
 * Who may reach the site, and by which names. A web page the technician happens to visit can reach a
 * server on 127.0.0.1 too: with a cross-origin request (stopped by the browser unless CORS grants it,
 * and here refused outright when the request names a foreign Origin) or by DNS rebinding, where the
 * page's own name comes to point at 127.0.0.1 and its requests carry that name in Host (refused by the
 * Host allow-list). Clients that are not browsers send no Origin and the address they typed as Host.
 */
export interface AccessPolicy {
  /** Exact origins (`https://app.example.com`) whose pages may call the site; `*` for any. Default: none. */
  readonly corsOrigins: readonly string[];
  /** Whether a request's Host header names this site. */
  hostAllowed(host: string | undefined): boolean;
}

/** The names a site on this machine is reached by, besides the address it listens on. */
export const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** A Host allow-list entry: `name` (any port), `name:port`, `[v6]` or `[v6]:port`. */
export interface HostPattern {
  /** Lower case; an IPv6 address in brackets. */
  name: string;
  /** null: any port. */
  port: number | null;
}

/** `name`, `name:port`, `[v6]` or `[v6]:port` (any case, a trailing dot ignored); null for anything else. */
export function parseHostPattern(text: string): HostPattern | null {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+?)\.?(?::(\d{1,5}))?$/.exec(text.trim().toLowerCase());
  if (!match) return null;
  const port = match[2] === undefined ? null : Number(match[2]);
  if (port !== null && (port < 1 || port > 65_535)) return null;
  return { name: match[1]!, port };
}

/** The name and port a Host header gives (80 when it names none: this server speaks plain HTTP). */
function parseHostHeader(host: string): { name: string; port: number } | null {
  const pattern = parseHostPattern(host);
  return pattern && { name: pattern.name, port: pattern.port ?? 80 };
}

/**
 * The Host check: `allowed` entries, plus the site's own names (`LOOPBACK_NAMES` and the address it
 * listens on) at `ownPort()` when `ownPortOnly`, else at any port. `'*'` answers every Host.
 */
export function hostMatcher(options: {
  allowed: readonly string[] | '*';
  ownNames: readonly string[];
  ownPortOnly: boolean;
  ownPort: () => number;
}): (host: string | undefined) => boolean {
  if (options.allowed === '*') return () => true;
  const patterns: HostPattern[] = [];
  for (const entry of options.allowed) {
    const pattern = parseHostPattern(entry);
    if (!pattern) throw new Error(`Not a host name, host:port or [IPv6] address: ${entry}`);
    patterns.push(pattern);
  }
  const own = options.ownNames.map((name) => parseHostPattern(name)).filter((pattern) => pattern !== null);
  return (host) => {
    if (host === undefined) return false;
    const asked = parseHostHeader(host);
    if (!asked) return false;
    const ownPort = options.ownPort();
    if (own.some((pattern) => pattern.name === asked.name && (!options.ownPortOnly || asked.port === ownPort)))
      return true;
    return patterns.some(
      (pattern) => pattern.name === asked.name && (pattern.port === null || pattern.port === asked.port),
    );
  };
}

/** A CORS origin option: `*`, or `scheme://host[:port]` exactly as browsers send it. */
export function parseCorsOrigin(text: string): string {
  const value = text.trim();
  if (value === '*') return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`Not an origin (scheme://host[:port]): ${text}`);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.origin !== value.replace(/\/$/, '').toLowerCase()
  ) {
    throw new Error(`Not an origin (scheme://host[:port], nothing after it): ${text}`);
  }
  return url.origin;
}

const ALLOW_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const ALLOW_HEADERS = ['Authorization', 'Content-Type', 'X-App-Id'];

/**
 * Refuses a request whose Host is not one of the site's names (421), then one whose Origin is neither the
 * site's own nor a CORS origin (403: a browser page of another site; its request never reaches a route,
 * even one a browser sends without asking first, like a form post), then grants CORS to the configured
 * origins only.
 */
export function accessMiddleware(policy: AccessPolicy): MiddlewareHandler[] {
  const anyOrigin = policy.corsOrigins.includes('*');
  const granted = new Set(policy.corsOrigins);
  const guard: MiddlewareHandler = async (c, next) => {
    const host = c.req.header('host');
    if (!policy.hostAllowed(host)) {
      throw new HttpError(421, 'This site does not answer to that host name');
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && !anyOrigin && !granted.has(origin) && !sameOrigin(origin, host ?? '')) {
      throw new HttpError(403, 'Requests from pages of other sites are refused');
    }
    await next();
  };
  if (policy.corsOrigins.length === 0) return [guard];
  return [
    guard,
    cors({
      origin: anyOrigin ? '*' : (origin) => (granted.has(origin) ? origin : null),
      allowMethods: ALLOW_METHODS,
      allowHeaders: ALLOW_HEADERS,
      maxAge: 600,
    }),
  ];
}

/** A page of this very site: its origin names the host the request was sent to. */
function sameOrigin(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.toLowerCase();
  } catch {
    return false; // `null` (a sandboxed frame, a file) and anything else that is not an origin
  }
}
