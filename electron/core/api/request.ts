import type { z } from 'zod';
import { ApiError, describeResource, errorBodyMessage, isWebPage, SignedOutHere } from './errors.ts';
import type { Http, HttpAnswer, Lane } from './http.ts';
import { refuseTooDeep } from './json-depth.ts';
import { networkError } from './network-errors.ts';
import { Deadline, pause, RETRY_BUDGETS, retryAfterSeconds } from './retry.ts';
import { fetchFollowing, MAX_JSON_BYTES, readCapped } from './redirects.ts';

export const API_PATH = '/api/2.0';
export const DEFAULT_TIMEOUT_MS = 20_000;
export type QueryValue = string | number | boolean | undefined | null;

export interface RequestOptions<T> {
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as it is (uploads), as `contentType` (default `application/octet-stream`). */
  bytes?: Uint8Array<ArrayBuffer>;
  contentType?: string;
  /** Validates a 2xx body; a mismatch is a `bad_response` naming the resource. */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
  /** A read sent as POST (the quiz list): asked again after a reset, like a GET. */
  idempotent?: boolean;
  /** Answers nesting arrays and objects deeper than this are refused before parsing (NestedTooDeepError). */
  maxDepth?: number;
}

/** What one request needs from its transport; held in the transport's private field (the token is in it). */
export interface RequestWire {
  baseUrl: string;
  token: string | null;
  appId: string | null;
  http: Http;
  timeoutMs: number;
  onServerTime: ((serverSeconds: number) => void) | undefined;
  /** The lane its requests go on (http.ts); none: the site's shared pool, with the sync's. */
  lane?: Lane;
  /** Its technician signed out (ApiTransport.retire): no request leaves any more, a read asked again included. */
  retired: boolean;
  /** Aborted when Fieldguide closes: every request out ends at once (Deadline), and none leaves after. */
  closing?: AbortSignal;
}

/**
 * One API request: the query, `Authorization: api <token>`, the time limit (retries of a read included),
 * JSON parsing, the schema check and typed errors.
 */
export async function sendRequest<T>(
  wire: RequestWire,
  method: string,
  path: string,
  options: RequestOptions<T> = {},
): Promise<T> {
  const resource = `${method} ${path}`;
  const url = new URL(wire.baseUrl + path);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
  }
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (wire.token !== null) headers.Authorization = `api ${wire.token}`;
  if (wire.appId !== null) headers['X-App-Id'] = wire.appId;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.bytes !== undefined) {
    headers['Content-Type'] = options.contentType ?? 'application/octet-stream';
    body = options.bytes;
  }

  // The time limit covers the answer and its body, retries included.
  const deadline = new Deadline(wire.timeoutMs, options.signal, wire.closing);
  const signal = deadline.signal;
  let response!: HttpAnswer;
  let text!: string;
  try {
    for (let attempt = 0; ; attempt++) {
      if (wire.retired) throw new SignedOutHere(resource);
      try {
        ({ response } = await fetchFollowing(
          wire.http,
          url,
          {
            method,
            headers,
            ...(body === undefined ? {} : { body }),
            signal,
            ...(wire.lane ? { lane: wire.lane } : {}),
          },
          { kind: 'api', siteOrigin: url.origin, resource },
        ));
        text = await readCapped(response, MAX_JSON_BYTES, resource);
        break;
      } catch (error) {
        if (error instanceof ApiError) throw error;
        const failure = networkError(error, resource, url, deadline.timedOut, wire.timeoutMs);
        // A read changes nothing: a connection reset on the way is asked again at once (a couple of times,
        // within the same time limit), so one lost connection never costs a guide until the next sync.
        // Not a timeout, a refusal or an unknown host: those say the site is away, and are said at once.
        const read = method === 'GET' || options.idempotent === true;
        if (!read || failure.reason !== 'other' || signal.aborted || attempt >= RETRY_BUDGETS.resetReads) throw failure;
        await pause(100 * (attempt + 1) + Math.random() * 200, signal);
      }
    }
  } finally {
    deadline.end();
  }

  const date = Date.parse(response.headers.get('date') ?? '');
  if (wire.onServerTime && Number.isFinite(date)) wire.onServerTime(date / 1000);
  if (response.ok && options.maxDepth !== undefined) refuseTooDeep(text, options.maxDepth, resource, response.status);
  const parsed = parseJson(text);
  if (!response.ok) {
    const message =
      errorBodyMessage(parsed.ok ? parsed.value : undefined) ??
      `The site answered ${describeResource(resource)} with an error (${response.status}).`;
    const error = new ApiError('http', resource, message, response.status, parsed.ok ? parsed.value : undefined);
    error.retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
    throw error;
  }
  if (response.status === 204 || text === '') return undefined as T;
  if (!parsed.ok) {
    const page = isWebPage(response.headers.get('content-type'))
      ? ' It is a web page: if this network shows a sign-in page first (guest Wi-Fi), ' +
        'sign in to it in a browser, then sync again.'
      : '';
    throw new ApiError(
      'bad_response',
      resource,
      `The site's answer ${describeResource(resource)} could not be read (it is not JSON).${page}`,
      response.status,
    );
  }
  if (!options.schema) return parsed.value as T;
  const checked = options.schema.safeParse(parsed.value);
  if (!checked.success) {
    const first = checked.error.issues[0];
    const where = first && first.path.length > 0 ? ` at ${first.path.join('.')}` : '';
    throw new ApiError(
      'bad_response',
      resource,
      `The site's answer ${describeResource(resource)} is not in the expected form${where}: ` +
        `${first?.message ?? 'invalid'}.`,
      response.status,
      undefined,
      { cause: checked.error },
    );
  }
  return checked.data;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
