import type { z } from 'zod';
import { ApiError, describeResource, errorBodyMessage, isWebPage } from './errors.ts';
import { siteHttp, type Http, type HttpAnswer } from './http.ts';
import { refuseTooDeep } from './json-depth.ts';
import { MediaFetch, type Download } from './media-fetch.ts';
import { MediaAddressPolicy } from './media-hosts.ts';
import { networkError } from './network-errors.ts';
import { Deadline, pause, RETRY_BUDGETS, retryAfterSeconds } from './retry.ts';
import { fetchFollowing, MAX_JSON_BYTES, readCapped } from './redirects.ts';

export { retryAfterSeconds };

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

export interface TransportOptions {
  /** The site's address, e.g. `https://example.dozuki.com`; the API lives under `/api/2.0`. */
  siteUrl: string;
  token?: string | null;
  /** The application id the site gave this app, sent as `X-App-Id` on every API request (iFixit's sign-in wants it). */
  appId?: string | null;
  /** How requests go out: the app's own HTTP client unless a test watches or redirects them. */
  http?: Http;
  timeoutMs?: number;
  /** Told the server's clock (its `Date` header, unix seconds) with each answer. */
  onServerTime?: (serverSeconds: number) => void;
  /** Origins of media the technician allowed for this site besides its own and the web's https hosts. */
  mediaOrigins?: () => readonly string[];
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
  readonly #appId: string | null;
  readonly #http: Http;
  readonly #timeoutMs: number;
  readonly #onServerTime: ((serverSeconds: number) => void) | undefined;
  readonly #media: MediaFetch;

  constructor(options: TransportOptions) {
    this.#onServerTime = options.onServerTime;
    this.siteUrl = options.siteUrl;
    this.baseUrl = options.siteUrl + API_PATH;
    this.#token = options.token ?? null;
    this.#appId = options.appId?.trim() || null;
    this.#http = options.http ?? siteHttp;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const policy = new MediaAddressPolicy(options.siteUrl, options.mediaOrigins ?? (() => []));
    this.#media = new MediaFetch({
      siteUrl: options.siteUrl,
      token: this.#token,
      http: this.#http,
      timeoutMs: this.#timeoutMs,
      policy,
    });
  }

  get hasToken(): boolean {
    return this.#token !== null;
  }

  /** The time limit of one request: past it, a request that may have reached the site has an unknown outcome. */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /**
   * GET of a file (media), from where media may come (media-hosts.ts), the token to the site's own
   * origin only; see MediaFetch.
   */
  download(url: string, signal?: AbortSignal): Promise<Download> {
    return this.#media.download(url, signal);
  }

  /** The size of a file as the site reports it (`HEAD`), or null when it does not say; see MediaFetch. */
  probeSize(url: string, signal?: AbortSignal): Promise<number | null> {
    return this.#media.probeSize(url, signal);
  }

  async request<T>(method: string, path: string, options: RequestOptions<T> = {}): Promise<T> {
    const resource = `${method} ${path}`;
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.#token !== null) headers.Authorization = `api ${this.#token}`;
    if (this.#appId !== null) headers['X-App-Id'] = this.#appId;
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.bytes !== undefined) {
      headers['Content-Type'] = options.contentType ?? 'application/octet-stream';
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
          ({ response } = await fetchFollowing(
            this.#http,
            url,
            { method, headers, ...(body === undefined ? {} : { body }), signal },
            { kind: 'api', siteOrigin: url.origin, resource },
          ));
          text = await readCapped(response, MAX_JSON_BYTES, resource);
          break;
        } catch (error) {
          if (error instanceof ApiError) throw error;
          const failure = networkError(error, resource, url, deadline.timedOut, this.#timeoutMs);
          // A read changes nothing: a connection reset on the way is asked again at once (a couple of times,
          // within the same time limit), so one lost connection never costs a guide until the next sync.
          // Not a timeout, a refusal or an unknown host: those say the site is away, and are said at once.
          const read = method === 'GET' || options.idempotent === true;
          if (!read || failure.reason !== 'other' || signal.aborted || attempt >= RETRY_BUDGETS.resetReads)
            throw failure;
          await pause(100 * (attempt + 1) + Math.random() * 200, signal);
        }
      }
    } finally {
      deadline.end();
    }

    const date = Date.parse(response.headers.get('date') ?? '');
    if (this.#onServerTime && Number.isFinite(date)) this.#onServerTime(date / 1000);
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
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
