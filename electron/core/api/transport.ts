import type { z } from 'zod';
import { ApiError, describeResource, errorBodyMessage, isWebPage } from './errors.ts';
import { siteHttp, type Http, type HttpAnswer } from './http.ts';
import { networkError } from './network-errors.ts';
import { Deadline, pause, READ_RETRIES } from './retry.ts';
import { fetchFollowing, MAX_JSON_BYTES, readCapped } from './redirects.ts';

export const API_PATH = '/api/2.0';
export const DEFAULT_TIMEOUT_MS = 20_000;
export type QueryValue = string | number | boolean | undefined | null;

export interface RequestOptions<T> {
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as it is (uploads), with `Content-Type: application/octet-stream`. */
  bytes?: Uint8Array<ArrayBuffer>;
  /** Validates a 2xx body; a mismatch is a `bad_response` naming the resource. */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
  /** A read sent as POST (the quiz list): asked again after a reset, like a GET. */
  idempotent?: boolean;
}

export interface TransportOptions {
  /** The site's address, e.g. `https://example.dozuki.com`; the API lives under `/api/2.0`. */
  siteUrl: string;
  token?: string | null;
  /** How requests go out: the app's own HTTP client unless a test watches or redirects them. */
  http?: Http;
  timeoutMs?: number;
  /** Told the server's clock (its `Date` header, unix seconds) with each answer. */
  onServerTime?: (serverSeconds: number) => void;
}

/**
 * The one place that speaks HTTP to an API 2.0 site: base URL, `Authorization: api <token>`, timeouts,
 * JSON parsing, schema checks and typed errors. The token lives in a private field so that neither
 * `console.log(client)` nor an error message can reveal it.
 */
export class ApiTransport {
  readonly siteUrl: string;
  readonly baseUrl: string;
  readonly #token: string | null;
  readonly #http: Http;
  readonly #timeoutMs: number;
  readonly #onServerTime: ((serverSeconds: number) => void) | undefined;

  constructor(options: TransportOptions) {
    this.#onServerTime = options.onServerTime;
    this.siteUrl = options.siteUrl;
    this.baseUrl = options.siteUrl + API_PATH;
    this.#token = options.token ?? null;
    this.#http = options.http ?? siteHttp;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  get hasToken(): boolean {
    return this.#token !== null;
  }

  /** The time limit of one request: past it, a request that may have reached the site has an unknown outcome. */
  get timeoutMs(): number { return this.#timeoutMs; }

  /**
   * GET of a file (media). The token goes only to the site's own origin, never to a CDN or another host.
   * The time limit applies to the answer's head and then to every gap between chunks of the body, so a
   * long video downloads while a stalled one fails. A non-2xx answer is an ApiError.
   */
  async download(url: string, signal?: AbortSignal): Promise<{ response: HttpAnswer; body: AsyncIterable<Uint8Array>; resource: string }> {
    const target = new URL(url, this.siteUrl);
    const resource = `GET ${target.pathname}`;
    // Media are fetched from the web only: a data:, file: or javascript: address is never read or kept.
    if (target.protocol !== 'https:' && target.protocol !== 'http:') {
      throw new ApiError('bad_response', resource, `A media address that is not a web address (${target.protocol}) is refused.`);
    }
    const headers: Record<string, string> = {};
    if (this.#token !== null && target.origin === new URL(this.siteUrl).origin) headers.Authorization = `api ${this.#token}`;
    // One timer per download, pushed back on each chunk (refresh() re-arms it without a new timer).
    const deadline = new Deadline(this.#timeoutMs, signal);
    const arm = (): void => deadline.refresh();
    const disarm = (): void => deadline.end();
    let response: HttpAnswer;
    try {
      const siteOrigin = new URL(this.siteUrl).origin;
      ({ response } = await fetchFollowing(this.#http, target, { headers, signal: deadline.signal }, { kind: 'download', siteOrigin, resource }));
    } catch (error) {
      disarm();
      if (error instanceof ApiError) throw error;
      throw networkError(error, resource, target, deadline.timedOut, this.#timeoutMs);
    }
    if (!response.ok) {
      disarm();
      response.cancel();
      const name = decodeURIComponent(target.pathname.split('/').pop() || 'a file');
      throw Object.assign(new ApiError('http', resource, `The site answered the download of ${name} with an error (${response.status}).`, response.status), { retryAfter: retryAfterSeconds(response.headers.get('retry-after')) });
    }
    const timeoutMs = this.#timeoutMs;
    const answer = response;
    const chunks = answer.body[Symbol.asyncIterator]();
    // The watchdog is re-armed before each read (no stream stage per file: media are thousands of small
    // files, and a TransformStream each cost more than their transfer). Leaving the loop early cancels.
    async function* body(): AsyncGenerator<Uint8Array> {
      let finished = false;
      try {
        for (;;) {
          arm();
          let chunk: IteratorResult<Uint8Array>;
          try {
            chunk = await chunks.next();
          } catch (error) {
            finished = true;
            throw networkError(error, resource, target, deadline.timedOut, timeoutMs);
          }
          if (chunk.done) {
            finished = true;
            return;
          }
          yield chunk.value;
        }
      } finally {
        disarm();
        if (!finished) answer.cancel();
      }
    }
    return { response, body: body(), resource };
  }

  /**
   * The size of a file as the site reports it (`HEAD`, its Content-Length), or null when it does not
   * say. The token goes only to the site's own origin, as for a download.
   */
  async probeSize(url: string, signal?: AbortSignal): Promise<number | null> {
    const target = new URL(url, this.siteUrl);
    const resource = `HEAD ${target.pathname}`;
    const headers: Record<string, string> = {};
    if (this.#token !== null && target.origin === new URL(this.siteUrl).origin) headers.Authorization = `api ${this.#token}`;
    // Redirects as for a download: to a CDN, without the token.
    const deadline = new Deadline(this.#timeoutMs, signal);
    let response: HttpAnswer;
    try {
      const siteOrigin = new URL(this.siteUrl).origin;
      ({ response } = await fetchFollowing(this.#http, target, { method: 'HEAD', headers, signal: deadline.signal }, { kind: 'download', siteOrigin, resource }));
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw networkError(error, resource, target, deadline.timedOut, this.#timeoutMs);
    } finally {
      deadline.end();
    }
    response.cancel();
    if (!response.ok) throw new ApiError('http', resource, `${resource} answered ${response.status}`, response.status);
    const length = Number(response.headers.get('content-length'));
    return Number.isFinite(length) && length > 0 ? length : null;
  }

  async request<T>(method: string, path: string, options: RequestOptions<T> = {}): Promise<T> {
    const resource = `${method} ${path}`;
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.#token !== null) headers.Authorization = `api ${this.#token}`;
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.bytes !== undefined) {
      headers['Content-Type'] = 'application/octet-stream';
      body = options.bytes;
    }

    // The time limit covers the answer and its body, retries included.
    const deadline = new Deadline(this.#timeoutMs, options.signal);
    const signal = deadline.signal;
    let response!: HttpAnswer;
    let text!: string;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          ({ response } = await fetchFollowing(this.#http, url, { method, headers, ...(body === undefined ? {} : { body }), signal }, { kind: 'api', siteOrigin: url.origin, resource }));
          text = await readCapped(response, MAX_JSON_BYTES, resource);
          break;
        } catch (error) {
          if (error instanceof ApiError) throw error;
          const failure = networkError(error, resource, url, deadline.timedOut, this.#timeoutMs);
          // A read changes nothing: a connection reset on the way is asked again at once (a couple of times,
          // within the same time limit), so one lost connection never costs a guide until the next sync.
          // Not a timeout, a refusal or an unknown host: those say the site is away, and are said at once.
          const read = method === 'GET' || options.idempotent === true;
          if (!read || failure.reason !== 'other' || signal.aborted || attempt >= READ_RETRIES) throw failure;
          await pause(100 * (attempt + 1) + Math.random() * 200, signal);
        }
      }
    } finally {
      deadline.end();
    }

    const date = Date.parse(response.headers.get('date') ?? '');
    if (this.#onServerTime && Number.isFinite(date)) this.#onServerTime(date / 1000);
    const parsed = parseJson(text);
    if (!response.ok) {
      const message =
        errorBodyMessage(parsed.ok ? parsed.value : undefined) ?? `The site answered ${describeResource(resource)} with an error (${response.status}).`;
      const error = new ApiError('http', resource, message, response.status, parsed.ok ? parsed.value : undefined);
      error.retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
      throw error;
    }
    if (response.status === 204 || text === '') return undefined as T;
    if (!parsed.ok) {
      const page = isWebPage(response.headers.get('content-type'))
        ? ' It is a web page: if this network shows a sign-in page first (guest Wi-Fi), sign in to it in a browser, then sync again.'
        : '';
      throw new ApiError('bad_response', resource, `The site's answer ${describeResource(resource)} could not be read (it is not JSON).${page}`, response.status);
    }
    if (!options.schema) return parsed.value as T;
    const checked = options.schema.safeParse(parsed.value);
    if (!checked.success) {
      const first = checked.error.issues[0];
      const where = first && first.path.length > 0 ? ` at ${first.path.join('.')}` : '';
      throw new ApiError(
        'bad_response',
        resource,
        `The site's answer ${describeResource(resource)} is not in the expected form${where}: ${first?.message ?? 'invalid'}.`,
        response.status,
        undefined,
        { cause: checked.error },
      );
    }
    return checked.data;
  }
}

/** `Retry-After` as seconds: a number of seconds or an HTTP date. */
export function retryAfterSeconds(header: string | null, nowMs = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, (at - nowMs) / 1000) : undefined;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
