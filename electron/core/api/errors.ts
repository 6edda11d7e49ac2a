import { resourceOf, resourceWords } from './resource.ts';

export type ApiErrorKind = 'network' | 'timeout' | 'http' | 'bad_response';
/**
 * Why a request got no answer: a name not found, a refused connection, no https there, a timeout,
 * cancelled, or not sent because the site is known not to answer just now (`unreachable`).
 */
export type NetworkReason = 'dns' | 'refused' | 'tls' | 'timeout' | 'cancelled' | 'unreachable' | 'other';

/**
 * A failed API call. `resource` names what was asked for (`GET /user`), never a header or a token.
 * `body` is the parsed error body when the server sent JSON.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** Seconds the server asked us to wait (`Retry-After`), when it said. */
  retryAfter: number | undefined;
  /** For `network` and `timeout` errors: why no answer came. */
  reason: NetworkReason | undefined;
  constructor(
    readonly kind: ApiErrorKind,
    readonly resource: string,
    message: string,
    readonly status?: number,
    readonly body?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The same failure told in other words (what it cost, say), the first as its cause. */
  explained(message: string): ApiError {
    const told = new ApiError(this.kind, this.resource, message, this.status, this.body, { cause: this });
    told.retryAfter = this.retryAfter;
    told.reason = this.reason;
    return told;
  }
}

/**
 * A request of a technician who signed out on this computer: not sent (ApiTransport.retire). A `network`
 * failure that is not the site's: it says nothing of whether the site answers (failure.ts, noAnswer).
 */
export class SignedOutHere extends ApiError {
  constructor(resource: string) {
    super('network', resource, 'Not sent: its technician signed out.');
    this.reason = 'cancelled';
  }
}

/**
 * An answer a caller of the client found not in the form it needs (a list that does not page, a web page
 * for a picture): an `unexpected` failure like any the client finds itself, made here so that ApiError is
 * made only by the API client.
 */
export const unexpectedAnswer = (resource: string, message: string): ApiError =>
  new ApiError('bad_response', resource, message);

/**
 * The site's own words in an error body, in either dialect (DESIGN.md §7): the reference's
 * `{message, errors?}` (the first error's message when the body has no message of its own) or iFixit's
 * `{error: true, message}`; `{error: "..."}` too, as some sites write it.
 */
export function errorBodyMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const { message, error, errors } = body as { message?: unknown; error?: unknown; errors?: unknown };
  if (typeof message === 'string' && message.trim() !== '') return message.trim();
  if (typeof error === 'string' && error.trim() !== '') return error.trim();
  const first: unknown = Array.isArray(errors) ? errors[0] : undefined;
  const said = first && typeof first === 'object' ? (first as { message?: unknown }).message : undefined;
  return typeof said === 'string' ? said : undefined;
}

/**
 * What a request asked for, in words, for messages a technician reads ("for guide 12"): the method and
 * path stay in `ApiError.resource` for the log.
 */
export const describeResource = (resource: string): string => resourceWords(resourceOf(resource));

/**
 * Whether an answer's type is a web page. A network that shows its sign-in page first (guest Wi-Fi)
 * answers every address with one, where the site's data or a picture was asked for.
 */
export const isWebPage = (contentType: string | null): boolean =>
  /^(text\/html|application\/xhtml\+xml)\b/i.test((contentType ?? '').trim());
