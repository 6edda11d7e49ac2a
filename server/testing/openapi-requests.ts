import fs from 'node:fs';
import type { OpenAPIBackend } from 'openapi-backend';

// Issue 25, acceptance 3: what iFixit's OpenAPI description of API 2.0 says of one request to the API.
// Checked with openapi-backend's request validator (Ajv over the description's parameter and body schemas;
// it reads OpenAPI 3.1 and runs on Node 20). Used by the request check of the reference server
// (request-check.ts, on in every test run) and by test/core/openapi-requests.test.ts. openapi-backend is a
// development package and is imported only when a check is asked for: the app's own path never loads it.

/** The seed's endpoints, which iFixit's description does not have (DESIGN.md §7, dozuki-api-2.0.md). */
export const SEED_ENDPOINTS: readonly (readonly [what: string, pattern: RegExp])[] = [
  ['the work log', /^\/work_log(\/|$)/],
  ['step forms', /^\/step_forms\//],
  ['quizzes', /^\/quizzes(\/|$)/],
  ["the reference's search (iFixit has /suggest)", /^\/search\//],
  ["Dozuki's guide releases, their release notes", /^\/guides\/(\d+\/)?releases$/],
  // DELETE /user/media/{type}/{itemId} removes a second copy of an upload a slow site made.
  [
    "the reference's uploads, media list and media deletion (iFixit has /user/media/images)",
    /^\/user\/media\/(uploads|current|[A-Za-z]+\/\d+)$/,
  ],
];

/** One request as it reached the site. */
export interface AskedRequest {
  method: string;
  /** The path under `/api/2.0`, e.g. `/guides/12`. */
  route: string;
  query: Record<string, string>;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The parsed JSON body (or its text when it is not JSON); absent for other bodies. */
  body?: unknown;
}

export type Judgement =
  { kind: 'operation'; operationId: string; errors: unknown[] } | { kind: 'seed'; what: string } | { kind: 'unknown' };

/** The package's name in a variable: a bundler leaves the import alone, so the app never carries it. */
const VALIDATOR_PACKAGE = 'openapi-backend';

/** A request validator, and the description's operations with their path patterns, most specific first. */
export interface Checker {
  validator: OpenAPIBackend;
  routes: { operation: Operation; pattern: RegExp }[];
}

type Operation = ReturnType<OpenAPIBackend['router']['getOperations']>[number];

const loaded = new Map<string, Promise<Checker>>();

/**
 * The checker over the description's copy in `file` (test/fixtures/ifixit-openapi/requests-2.0.json), made
 * once per process: building it and compiling its schemas takes about a second, and every site started
 * in a test file shares it.
 */
export function loadChecker(file: string): Promise<Checker> {
  let checker = loaded.get(file);
  if (!checker) {
    checker = makeChecker(file);
    loaded.set(file, checker);
    checker.catch(() => loaded.delete(file));
  }
  return checker;
}

async function makeChecker(file: string): Promise<Checker> {
  const definition: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  const { OpenAPIBackend } = (await import(/* @vite-ignore */ VALIDATOR_PACKAGE)) as typeof import('openapi-backend');
  const validator = new OpenAPIBackend({
    definition: definition as ConstructorParameters<typeof OpenAPIBackend>[0]['definition'],
    // Query and path values arrive as text; the description's types (integer, boolean) are read from it.
    coerceTypes: true,
    // Requests are checked; the description itself is not (its 3.1 schemas trip the 3.0 document check).
    quick: true,
    ajvOpts: { formats: { email: /^[^\s@]+@[^\s@]+$/, password: true, uri: true, binary: true, int64: true } },
  });
  await validator.init();
  const template = /\{.*?\}/g;
  const routes = validator.router
    .getOperations()
    .map((operation) => ({
      operation,
      pattern: new RegExp(`^${operation.path.replace(template, '[^/]+')}$`),
      specificity: operation.path.replace(template, '').length,
    }))
    .sort((a, b) => b.specificity - a.specificity)
    .map(({ operation, pattern }) => ({ operation, pattern }));
  return { validator, routes };
}

/**
 * openapi-backend's matchOperation, with the patterns made once: an operation of exactly this path and
 * method, else of the most specific path template that matches (the package rebuilds every pattern on
 * every call, some milliseconds a request, which the tests' thousands of requests would pay).
 */
export function matchOperation(checker: Checker, method: string, route: string): Operation | undefined {
  const verb = method.toLowerCase();
  const path = route.length > 1 ? route.replace(/\/+$/, '') : route;
  return (
    checker.routes.find(({ operation }) => operation.path === path && operation.method === verb)?.operation ??
    checker.routes.find(({ operation, pattern }) => operation.method === verb && pattern.test(path))?.operation
  );
}

/** Query parameters the seed (Dozuki's API 2.0) documents beyond iFixit's description, each with what it is. */
export const SEED_PARAMETERS: { method: string; route: RegExp; name: string; what: string }[] = [
  {
    method: 'GET',
    route: /^\/guides\/?$/,
    name: 'includePrivate',
    what: "private guides for an admin (dozuki-api-2.0.md, GET /guides); iFixit's description has no private guides",
  },
];

/** The description's operation for the request and what it holds against it, or the seed's endpoint it is. */
export function judge(checker: Checker, request: AskedRequest): Judgement {
  const asked = {
    method: request.method,
    path: request.route,
    headers: request.headers,
    query: request.query,
    ...(request.body === undefined ? {} : { body: request.body }),
  };
  const operation = matchOperation(checker, request.method, request.route);
  if (!operation) {
    const known = SEED_ENDPOINTS.find(([, pattern]) => pattern.test(request.route));
    return known ? { kind: 'seed', what: known[0] } : { kind: 'unknown' };
  }
  // `videoid` is "an integer or a string" as oneOf: a numeric id is both, which oneOf counts against
  // it. Matching more than one alternative is matching the parameter, and is not held against the client.
  const errors = (checker.validator.validateRequest(asked, operation).errors ?? []).filter(
    (error) =>
      !(
        error.keyword === 'oneOf' && ((error.params as { passingSchemas?: unknown[] }).passingSchemas?.length ?? 0) > 1
      ),
  );
  return { kind: 'operation', operationId: operation.operationId!, errors };
}
