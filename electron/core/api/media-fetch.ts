import { ApiError, SignedOutHere } from './errors.ts';
import type { Http, HttpAnswer } from './http.ts';
import { RefusedAddressError, type MediaAddressPolicy } from './media-hosts.ts';
import { networkError } from './network-errors.ts';
import { fetchFollowing } from './redirects.ts';
import { Deadline, retryAfterSeconds } from './retry.ts';

type FetchInit = { method?: string; headers: Record<string, string>; signal: AbortSignal };

export interface Download {
  response: HttpAnswer;
  body: AsyncIterable<Uint8Array>;
  resource: string;
}

/**
 * Media files from a site: only from where media may come (media-hosts.ts, every redirect hop included),
 * the token to the site's own origin only, never to a CDN or another host. Made by ApiTransport, which
 * hands it the token: it lives in a private field here too.
 */
export class MediaFetch {
  readonly #token: string | null;
  readonly #siteOrigin: string;

  constructor(
    private readonly options: {
      siteUrl: string;
      token: string | null;
      http: Http;
      timeoutMs: number;
      policy: MediaAddressPolicy;
      /** Its technician signed out (ApiTransport.retire): nothing more is asked with their token. */
      retired: () => boolean;
      /** Aborted when Fieldguide closes: a download out ends at once. */
      closing?: AbortSignal;
    },
  ) {
    this.#token = options.token;
    this.#siteOrigin = new URL(options.siteUrl).origin;
  }

  /**
   * GET of a file. The time limit applies to the answer's head and then to every gap between chunks of
   * the body, so a long video downloads while a stalled one fails. A non-2xx answer is an ApiError.
   */
  async download(url: string, signal?: AbortSignal): Promise<Download> {
    const { target, resource, headers } = this.#prepare(url, 'GET');
    const { timeoutMs } = this.options;
    // One timer per download, pushed back on each chunk (refresh() re-arms it without a new timer).
    const deadline = new Deadline(timeoutMs, signal, this.options.closing);
    const arm = (): void => deadline.refresh();
    const disarm = (): void => deadline.end();
    let response: HttpAnswer;
    const hop = { url: target };
    try {
      ({ response } = await this.#fetch(hop, { headers, signal: deadline.signal }, resource));
    } catch (error) {
      disarm();
      throw this.#failure(error, resource, hop.url, deadline);
    }
    if (!response.ok) {
      disarm();
      response.cancel();
      const name = decodeURIComponent(target.pathname.split('/').pop() || 'a file');
      const message = `The site answered the download of ${name} with an error (${response.status}).`;
      const failure = new ApiError('http', resource, message, response.status);
      failure.retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
      throw failure;
    }
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

  /** The size of a file as the site reports it (`HEAD`, its Content-Length), or null when it does not say. */
  async probeSize(url: string, signal?: AbortSignal): Promise<number | null> {
    const { target, resource, headers } = this.#prepare(url, 'HEAD');
    const deadline = new Deadline(this.options.timeoutMs, signal, this.options.closing);
    let response: HttpAnswer;
    const hop = { url: target };
    try {
      ({ response } = await this.#fetch(hop, { method: 'HEAD', headers, signal: deadline.signal }, resource));
    } catch (error) {
      throw this.#failure(error, resource, hop.url, deadline);
    } finally {
      deadline.end();
    }
    response.cancel();
    if (!response.ok) throw new ApiError('http', resource, `${resource} answered ${response.status}`, response.status);
    const length = Number(response.headers.get('content-length'));
    return Number.isFinite(length) && length > 0 ? length : null;
  }

  #prepare(url: string, method: string): { target: URL; resource: string; headers: Record<string, string> } {
    const target = new URL(url, this.options.siteUrl);
    const resource = `${method} ${target.pathname}`;
    // Media are fetched from the web only: a data:, file: or javascript: address is never read or kept.
    if (target.protocol !== 'https:' && target.protocol !== 'http:') {
      const message = `A media address that is not a web address (${target.protocol}) is refused.`;
      throw new ApiError('bad_response', resource, message);
    }
    if (this.options.retired()) throw new SignedOutHere(resource);
    const headers: Record<string, string> = {};
    if (this.#token !== null && target.origin === this.#siteOrigin) headers.Authorization = `api ${this.#token}`;
    return { target, resource, headers };
  }

  /**
   * Redirects as for any download: to a CDN, without the token; every hop where media may come from.
   * `hop.url` is left at the last address asked, which a refusal names.
   */
  #fetch(hop: { url: URL }, init: FetchInit, resource: string) {
    const guard = (url: URL): { resolveCheck: boolean } => {
      hop.url = url;
      return this.options.policy.check(url, resource);
    };
    const how = { kind: 'download' as const, siteOrigin: this.#siteOrigin, resource, guard };
    return fetchFollowing(this.options.http, hop.url, init, how);
  }

  #failure(error: unknown, resource: string, target: URL, deadline: Deadline): ApiError {
    if (error instanceof ApiError) return error;
    // A name of the web that resolved to this computer or the local network (media-hosts.ts, guardedLookup).
    const inside = insideError(error);
    if (inside) {
      const message = `${inside.message} If it is your site's own media server, allow it in the sync centre.`;
      return new RefusedAddressError(resource, message, target.origin);
    }
    return networkError(error, resource, target, deadline.timedOut, this.options.timeoutMs);
  }
}

function insideError(error: unknown): Error | null {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    if ((current as { code?: unknown }).code === 'EFIELDGUIDE_INSIDE') return current as Error;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
