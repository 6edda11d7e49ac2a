import { expect } from 'vitest';
import type { z } from 'zod';
import { DEMO_ACCOUNTS, type DemoAccountName } from '../../server/demo-accounts.ts';
import type { Db } from '../../server/db/types.ts';
import { startDemoSite, startSite, type RunningSite } from '../../server/site.ts';
import { seedDemoPeople } from '../../server/users/seed.ts';
import { DEMO_APP_ID, type Dialect } from '../../server/http/dialects.ts';
import { INVALID_ON_PURPOSE } from '../../server/testing/request-check.ts';

export interface TestSiteOptions {
  /** The full demo workshop (people and content) instead of the people only. */
  demo?: boolean;
  /** Runs after the demo people are seeded, to add what one test file needs. */
  seed?: (db: Db) => void;
  dbFile?: string;
  /** The dialect of API 2.0 it speaks (server/http/dialects.ts); default the reference's. */
  dialect?: Dialect;
  /** Why the run's request check leaves this site's requests alone (SiteOptions.uncheckedBecause). */
  uncheckedBecause?: string;
  /** Its work-log list knows no `status` filter (SiteOptions.noStatusFilter). */
  noStatusFilter?: boolean;
}

/** A real server on a free loopback port, test hooks on. Close it in `afterAll`. */
export function startTestSite(options: TestSiteOptions = {}): Promise<RunningSite> {
  const dialect = options.dialect ? { dialect: options.dialect } : {};
  const file = options.dbFile ? { dbFile: options.dbFile } : {};
  const unchecked = {
    ...(options.uncheckedBecause ? { uncheckedBecause: options.uncheckedBecause } : {}),
    ...(options.noStatusFilter ? { noStatusFilter: true } : {}),
  };
  if (options.demo) return startDemoSite({ testHooks: true, ...dialect, ...file, ...unchecked });
  return startSite({
    testHooks: true,
    ...dialect,
    ...unchecked,
    ...(options.dbFile ? { dbFile: options.dbFile } : {}),
    seed: (db) => {
      seedDemoPeople(db);
      options.seed?.(db);
    },
  });
}

/** Headers of a request a test sends malformed on purpose: the run's request check leaves it alone. */
export const MALFORMED_ON_PURPOSE: Readonly<Record<string, string>> = { [INVALID_ON_PURPOSE]: '1' };

export interface CallOptions {
  token?: string | null;
  /** Serialised as the JSON body. */
  json?: unknown;
  /** Sent as it is (for bad JSON or raw uploads). */
  body?: string | Uint8Array;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  body: T;
}

/** One HTTP request against an absolute URL; the body is read in full and parsed when it is JSON. */
export async function call<T = any>(method: string, url: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const target = new URL(url);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) target.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `api ${options.token}`;
  let body: string | Uint8Array | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(target, { method, headers, ...(body !== undefined ? { body: body as BodyInit } : {}) });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed as T };
}

/** A request to `site.apiUrl + path` (`path` like `/user`). */
export function api<T = any>(
  site: RunningSite,
  method: string,
  path: string,
  options?: CallOptions,
): Promise<CallResult<T>> {
  return call<T>(method, site.apiUrl + path, options);
}

export interface SignedIn {
  token: string;
  userid: number;
  username: string;
}

/** Signs in as a demo account (or any e-mail and password) and returns the token. */
export async function signIn(
  site: RunningSite,
  who: DemoAccountName | { email: string; password: string },
): Promise<SignedIn> {
  const credentials = typeof who === 'string' ? DEMO_ACCOUNTS[who] : who;
  // An iFixit-dialect site wants an application id to sign in: the demo's, which a reference site ignores.
  const headers = { 'X-App-Id': DEMO_APP_ID };
  const json = { email: credentials.email, password: credentials.password };
  const answer = await api(site, 'POST', '/user/token', { json, headers });
  if (answer.status !== 201) throw new Error(`sign-in as ${credentials.email} failed: ${answer.status} ${answer.text}`);
  return { token: answer.body.authToken, userid: answer.body.userid, username: answer.body.username };
}

/**
 * Removes a demo account's favourites on the site. Favourites are kept whole whatever the scope, so a test that
 * counts the guides a scope keeps, or the requests for one guide, starts from none.
 */
export async function clearFavorites(site: RunningSite, who: DemoAccountName): Promise<void> {
  const { token } = await signIn(site, who);
  const headers = { 'X-App-Id': DEMO_APP_ID };
  const listed = (await api(site, 'GET', '/user/favorites/guides', { token, headers })).body as unknown[];
  for (const entry of listed) {
    // The seed's dialect lists guides; iFixit's lists {date, guide}.
    const { guideid } = ((entry as { guide?: unknown }).guide ?? entry) as { guideid: number };
    const gone = await api(site, 'DELETE', `/user/favorites/guides/${guideid}`, { token, headers });
    if (gone.status >= 300) throw new Error(`could not remove favourite ${guideid}: ${gone.status} ${gone.text}`);
  }
}

/** Signs every demo account in at once. */
export async function signInAll(site: RunningSite): Promise<Record<DemoAccountName, SignedIn>> {
  const names = Object.keys(DEMO_ACCOUNTS) as DemoAccountName[];
  const sessions = await Promise.all(names.map((name) => signIn(site, name)));
  return Object.fromEntries(names.map((name, index) => [name, sessions[index]!])) as Record<DemoAccountName, SignedIn>;
}

/** Parses with the schema and fails the test with zod's account of what differs. */
export function expectShape<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    expect.fail(
      `shape differs: ${JSON.stringify(result.error.issues, null, 1)}\nvalue: ${JSON.stringify(value)?.slice(0, 2000)}`,
    );
  }
  return result.data;
}

/** An error answer of DESIGN.md §7: the status, a `message`, and the named field when one is given. */
export function expectError(result: CallResult, status: number, field?: string, code?: string): void {
  expect(result.status, result.text).toBe(status);
  expect(result.headers.get('content-type')).toContain('application/json');
  expect(typeof result.body?.message, result.text).toBe('string');
  if (field !== undefined) {
    const fields = (result.body.errors ?? []).map((error: { field?: string }) => error.field);
    expect(fields, result.text).toContain(field);
    if (code !== undefined) {
      expect(result.body.errors.find((error: { field?: string }) => error.field === field)?.code).toBe(code);
    }
  }
}
