import { siteHttp, type Http, type Lane } from './http.ts';
import { MediaFetch, type Download } from './media-fetch.ts';
import { MediaAddressPolicy } from './media-hosts.ts';
import { SignedOutHere } from './errors.ts';
import { API_PATH, DEFAULT_TIMEOUT_MS, sendRequest, type RequestOptions, type RequestWire } from './request.ts';
import { retryAfterSeconds } from './retry.ts';

export { API_PATH, DEFAULT_TIMEOUT_MS, retryAfterSeconds, SignedOutHere };
export type { QueryValue, RequestOptions } from './request.ts';

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
  /** The lane its API requests go on (http.ts); none: the shared one. */
  lane?: Lane;
  /**
   * Aborted when Fieldguide closes: every request and download out ends at once, and none leaves after. A
   * quit waits for no site (a hanging one held it for each request's time limit).
   */
  closing?: AbortSignal;
}

/**
 * The one place that speaks HTTP to an API 2.0 site: one site's address and token, its API requests
 * (request.ts) and its media downloads (media-fetch.ts). The token lives in a private field so that
 * neither `console.log(client)` nor an error message can reveal it.
 */
export class ApiTransport {
  readonly siteUrl: string;
  readonly baseUrl: string;
  readonly #wire: RequestWire;
  readonly #media: MediaFetch;
  readonly #options: TransportOptions;
  #front: ApiTransport | null = null;
  #warmth: ApiTransport | null = null;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.siteUrl = options.siteUrl;
    this.baseUrl = options.siteUrl + API_PATH;
    this.#wire = {
      baseUrl: this.baseUrl,
      token: options.token ?? null,
      appId: options.appId?.trim() || null,
      http: options.http ?? siteHttp,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      onServerTime: options.onServerTime,
      ...(options.lane ? { lane: options.lane } : {}),
      ...(options.closing ? { closing: options.closing } : {}),
      retired: false,
    };
    const policy = new MediaAddressPolicy(options.siteUrl, options.mediaOrigins ?? (() => []));
    this.#media = new MediaFetch({
      siteUrl: options.siteUrl,
      token: this.#wire.token,
      http: this.#wire.http,
      timeoutMs: this.#wire.timeoutMs,
      policy,
      retired: () => this.#wire.retired,
      ...(options.closing ? { closing: options.closing } : {}),
    });
  }

  /**
   * The same site and sign-in, its API requests on the front lane (http.ts): for what the technician waits
   * on now while a sync keeps the shared connections busy. Its media downloads stay on the shared pool.
   */
  front(): ApiTransport {
    if (this.#options.lane === 'front') return this;
    this.#front ??= new ApiTransport({ ...this.#options, lane: 'front' });
    if (this.retired) this.#front.retire();
    return this.#front;
  }

  /** The same site and sign-in, for the front lane's own warm questions (sync/front-lane.ts). */
  frontWarmth(): ApiTransport {
    if (this.#options.lane === 'front-warmth') return this;
    this.#warmth ??= new ApiTransport({ ...this.#options, lane: 'front-warmth' });
    if (this.retired) this.#warmth.retire();
    return this.#warmth;
  }

  /**
   * Its technician signed out here (or their token was replaced): from now on no request of this transport
   * leaves, an API read asked again after a reset and a download included; each throws SignedOutHere. A
   * request already out is answered as it comes: it left while they were signed in.
   */
  retire(): void {
    this.#wire.retired = true;
    this.#front?.retire();
    this.#warmth?.retire();
  }

  get retired(): boolean {
    return this.#wire.retired;
  }

  get hasToken(): boolean {
    return this.#wire.token !== null;
  }

  /** The time limit of one request: past it, a request that may have reached the site has an unknown outcome. */
  get timeoutMs(): number {
    return this.#wire.timeoutMs;
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

  request<T>(method: string, path: string, options: RequestOptions<T> = {}): Promise<T> {
    return sendRequest(this.#wire, method, path, options);
  }
}
