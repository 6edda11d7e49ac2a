import fs from 'node:fs';
import path from 'node:path';
import type { Dialect } from '../http/dialects.ts';
import { judge, loadChecker, SEED_PARAMETERS, type AskedRequest } from './openapi-requests.ts';

// The tests' request check (issue 25, acceptance 3): with FIELDGUIDE_OPENAPI_CHECK set (the test runs set it
// in test/openapi-check.global.ts), every site started holds each request to its API against iFixit's
// description. A request the description has and does not allow, or one to an endpoint neither the
// description nor the seed's list (openapi-requests.ts) has, is appended to that file as a JSON line; the
// run fails when the file holds any. Servers started as child processes inherit the variables.

/** The file problems are appended to; set, it switches the check on. */
export const REQUEST_CHECK_ENV = 'FIELDGUIDE_OPENAPI_CHECK';
/** The description's copy the check reads (test/fixtures/ifixit-openapi/requests-2.0.json). */
export const DESCRIPTION_ENV = 'FIELDGUIDE_OPENAPI_DESCRIPTION';
/**
 * A request a test sends malformed on purpose (an attack, a refusal the server must give) carries this
 * header, and is not held to the description.
 */
export const INVALID_ON_PURPOSE = 'x-fieldguide-test-invalid';

export interface RequestCheck {
  log: string;
  description: string;
}

export interface RequestProblem {
  /** The test file and test that asked, when the site runs inside a test; else the command that runs it. */
  test: string;
  method: string;
  path: string;
  query: Record<string, string>;
  errors: unknown[];
}

/** The check the environment asks for, or null (the app, the demo, a person's `npm run server`). */
export function requestCheckFromEnv(env: NodeJS.ProcessEnv = process.env): RequestCheck | null {
  const log = env[REQUEST_CHECK_ENV];
  if (!log) return null;
  const description = env[DESCRIPTION_ENV];
  if (!description || !fs.existsSync(description)) {
    throw new Error(
      `${REQUEST_CHECK_ENV} asks for the request check, but ${DESCRIPTION_ENV} names no description's copy ` +
        `(${description ?? 'unset'}): set it to test/fixtures/ifixit-openapi/requests-2.0.json`,
    );
  }
  return { log, description };
}

/** `fetch`, with each request to the API (under `apiPrefix`) held to the description first. */
export async function checkRequests<Adapter extends unknown[]>(
  // After the request, what the Node adapter passes along: the socket, which tells the client's address.
  fetch: (request: Request, ...adapter: Adapter) => Response | Promise<Response>,
  check: RequestCheck,
  apiPrefix: string,
  dialect: Dialect,
): Promise<(request: Request, ...adapter: Adapter) => Promise<Response>> {
  const checker = await loadChecker(check.description);
  return async (request: Request, ...adapter: Adapter) => {
    const url = new URL(request.url);
    // A CORS preflight (OPTIONS) is the browser's question about a request, not a request of the API.
    const preflight = request.method === 'OPTIONS';
    if (url.pathname.startsWith(`${apiPrefix}/`) && !preflight && !request.headers.has(INVALID_ON_PURPOSE)) {
      const asked: AskedRequest = {
        method: request.method,
        route: url.pathname.slice(apiPrefix.length),
        query: withoutSeedParameters(dialect, request.method, url.pathname.slice(apiPrefix.length), url.searchParams),
        headers: Object.fromEntries(request.headers),
        ...(await jsonBody(request)),
      };
      const judgement = judge(checker, asked);
      const errors =
        judgement.kind === 'unknown'
          ? ["neither in iFixit's description nor one of the seed's endpoints"]
          : judgement.kind === 'operation'
            ? judgement.errors
            : [];
      if (errors.length > 0) {
        const { method, route, query } = asked;
        const problem: RequestProblem = { test: whoAsked(), method, path: route, query, errors };
        fs.appendFileSync(check.log, JSON.stringify(problem) + '\n');
      }
    }
    return fetch(request, ...adapter);
  };
}

/**
 * The query, less the parameters the seed documents beyond iFixit's description when the site is Dozuki's
 * (SEED_PARAMETERS): a Dozuki site is asked them; an iFixit site is held to its description.
 */
function withoutSeedParameters(dialect: Dialect, method: string, route: string, params: URLSearchParams) {
  const query = Object.fromEntries(params);
  if (dialect !== 'dozuki') return query;
  for (const seed of SEED_PARAMETERS) if (seed.method === method && seed.route.test(route)) delete query[seed.name];
  return query;
}

/** The largest body the check reads: the client's JSON is small, and a site refuses a huge one unread. */
const BODY_LIMIT = 1024 * 1024;

/** A JSON body, parsed (its text when it does not parse); read from a copy, so the site still reads it. */
async function jsonBody(request: Request): Promise<{ body?: unknown }> {
  if (!request.body || !/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) return {};
  const length = Number(request.headers.get('content-length') ?? Infinity);
  if (!(length <= BODY_LIMIT)) return {};
  const text = await request.clone().text();
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { body: text };
  }
}

interface ExpectState {
  currentTestName?: string;
  testPath?: string;
}

/**
 * The running test, read from vitest's global `expect` when the site runs inside a test worker; else the
 * command line of this process (a site a test started as a child process).
 */
function whoAsked(): string {
  const expect = (globalThis as Record<symbol, { getState?: () => ExpectState } | undefined>)[
    Symbol.for('expect-global')
  ];
  const state = expect?.getState?.();
  if (state?.testPath) return `${path.relative(process.cwd(), state.testPath)} > ${state.currentTestName ?? ''}`;
  return process.argv
    .slice(1)
    .map((arg) => (path.isAbsolute(arg) ? path.relative(process.cwd(), arg) : arg))
    .join(' ');
}
