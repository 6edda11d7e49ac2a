import { ApiError, errorBodyMessage, SignedOutHere, type NetworkReason } from './errors.ts';
import { resourceOf, type Resource } from './resource.ts';

export type { Resource } from './resource.ts';

/** What every failure of the site says: the message told, what was asked (structured, and as sent for the log). */
interface Said {
  message: string;
  resource: Resource;
  /** The method and path, for the log and the sync's reports (`GET /guides/12`); never a token. */
  request: string;
  /** The HTTP status, when the site answered; for logs and details only, never for deciding. */
  status: number | null;
  /** The error the client threw, as the cause of whatever a consumer throws in its place. */
  error: ApiError;
}

/**
 * What a failure means, decided once (issue 27): every consumer switches on `kind`.
 * - `unreachable`: no answer (`reason`: no such name, refused, no https, cancelled, known away, reset)
 * - `timeout`: no answer within the time limit: a change sent may have landed
 * - `signed-out`: the site refused the token (401): the technician signs in again
 * - `forbidden`: the site has it, not for this account (403)
 * - `gone`: not there (404), or removed for good (410)
 * - `not-offered`: the site has no such method or module (405, 501)
 * - `conflict`: changed since it was seen (409); `current` is the site's copy as it sent it
 * - `refused`: any other refusal of the request, in the site's words; `invalid` when it names the input (400, 422)
 * - `busy`: asked to wait: too many requests (429, `rate`) or overloaded (503, `overload`), with Retry-After
 * - `site-error`: any other 5xx; `gateway` when a gateway gave up waiting (504): the site may still apply it
 * - `unexpected`: an answer not in the expected form (not JSON, wrong shape, a web page, a bad redirect)
 * - `local`: not the site's failure at all (a bug, the disk): consumers throw it on
 */
export type Failure =
  | (Said & { kind: 'unreachable'; reason: NetworkReason })
  | (Said & { kind: 'timeout' })
  | (Said & { kind: 'signed-out'; words: string | null })
  | (Said & { kind: 'forbidden'; words: string | null })
  | (Said & { kind: 'gone'; forGood: boolean })
  | (Said & { kind: 'not-offered' })
  | (Said & { kind: 'conflict'; current: unknown })
  | (Said & { kind: 'refused'; words: string | null; invalid: boolean; body: unknown })
  | (Said & { kind: 'busy'; limit: 'rate' | 'overload'; retryAfter: number | undefined })
  | (Said & { kind: 'site-error'; gateway: boolean; retryAfter: number | undefined })
  | (Said & { kind: 'unexpected' })
  | { kind: 'local'; error: unknown };

/** A failure of the site (anything but `local`). */
export type SiteFailure = Exclude<Failure, { kind: 'local' }>;

/** The one reading of a thrown error besides the client's own: what it means. */
export function classify(error: unknown): Failure {
  if (!(error instanceof ApiError)) return { kind: 'local', error };
  const said: Said = {
    message: error.message,
    resource: resourceOf(error.resource),
    request: error.resource,
    status: error.status ?? null,
    error,
  };
  switch (error.kind) {
    case 'network':
      return { ...said, kind: 'unreachable', reason: error.reason ?? 'other' };
    case 'timeout':
      return { ...said, kind: 'timeout' };
    case 'bad_response':
      return { ...said, kind: 'unexpected' };
    case 'http':
      return byStatus(said, error);
    default:
      return unknownKind(error.kind);
  }
}

function byStatus(said: Said, error: ApiError): SiteFailure {
  const status = error.status ?? 0;
  const words = errorBodyMessage(error.body) ?? null;
  if (status === 401) return { ...said, kind: 'signed-out', words };
  if (status === 403) return { ...said, kind: 'forbidden', words };
  if (status === 404 || status === 410) return { ...said, kind: 'gone', forGood: status === 410 };
  if (status === 405 || status === 501) return { ...said, kind: 'not-offered' };
  if (status === 409) return { ...said, kind: 'conflict', current: error.body };
  // 420: iFixit's rate limit on reputation-earning writes ("Returns 420 when a reputation rate limit is
  // exceeded", PUT /guides/{id}/completed in its OpenAPI description): a rate limit like 429, asked again later.
  if (status === 429 || status === 420 || status === 503)
    return { ...said, kind: 'busy', limit: status === 503 ? 'overload' : 'rate', retryAfter: error.retryAfter };
  if (status >= 500) return { ...said, kind: 'site-error', gateway: status === 504, retryAfter: error.retryAfter };
  const invalid = status === 400 || status === 422;
  return { ...said, kind: 'refused', words, invalid, body: error.body };
}

/** Worth asking again later: no answer, a busy site or a site error. */
export function mayPass(failure: Failure): boolean {
  switch (failure.kind) {
    case 'unreachable':
    case 'timeout':
    case 'busy':
    case 'site-error':
      return true;
    case 'signed-out':
    case 'forbidden':
    case 'gone':
    case 'not-offered':
    case 'conflict':
    case 'refused':
    case 'unexpected':
    case 'local':
      return false;
    default:
      return unknownKind(failure);
  }
}

/** No answer came at all: the network or the site is away (what the status bar calls offline). */
export const noAnswer = (failure: Failure): boolean =>
  failure.kind === 'timeout' || (failure.kind === 'unreachable' && !(failure.error instanceof SignedOutHere));

/**
 * The site says it has no such thing here (a module it lacks, a guide no longer shown to this account):
 * gone, not offered or forbidden.
 */
export const notThere = (
  failure: Failure,
): failure is Extract<Failure, { kind: 'gone' | 'not-offered' | 'forbidden' }> =>
  failure.kind === 'gone' || failure.kind === 'not-offered' || failure.kind === 'forbidden';

/** Ends an exhaustive switch on a failure's kind: a kind added to the union and not handled fails the typecheck. */
export function unknownKind(value: never): never {
  throw new Error(`A failure of an unknown kind: ${JSON.stringify(value)}.`);
}

/** The site refused the application id (iFixit: 400 "Invalid app id" to a sign-in without a valid `X-App-Id`). */
export function isAppIdRefusal(failure: Failure): boolean {
  const said = /\bapp(lication)?[ _-]?id\b/i;
  switch (failure.kind) {
    case 'refused':
      return failure.invalid && said.test(failure.words ?? '');
    case 'signed-out':
    case 'forbidden':
      return said.test(failure.words ?? '');
    default:
      return false;
  }
}

/** The site answered, and said no: a refusal of any kind, not a failure that may pass or an unreadable answer. */
export function saidNo(failure: Failure): boolean {
  switch (failure.kind) {
    case 'signed-out':
    case 'forbidden':
    case 'gone':
    case 'not-offered':
    case 'conflict':
    case 'refused':
      return true;
    case 'unreachable':
    case 'timeout':
    case 'busy':
    case 'site-error':
    case 'unexpected':
    case 'local':
      return false;
    default:
      return unknownKind(failure);
  }
}

/** The site answered with an error status, whatever it was (the answer of an optional extra). */
export const answeredError = (failure: Failure): boolean =>
  saidNo(failure) || failure.kind === 'busy' || failure.kind === 'site-error';
