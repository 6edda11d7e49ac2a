import { AppFailure } from '../result.ts';
import type { ApiError } from './errors.ts';
import { classify, unknownKind, type SiteFailure } from './failure.ts';

/** A site's failure in the App API's vocabulary, by its kind (failure.ts). */
export function appFailureOf(failure: SiteFailure): AppFailure {
  const details = { resource: failure.request, ...(failure.status ? { status: failure.status } : {}) };
  const made = (code: AppFailure['code'], more: Record<string, unknown> = {}): AppFailure =>
    new AppFailure(code, failure.message, { ...details, ...more }, { cause: failure.error });
  switch (failure.kind) {
    case 'unreachable':
    case 'timeout':
      return made('offline');
    case 'signed-out':
      return made('unauthorized');
    case 'forbidden':
      return made('forbidden');
    case 'gone':
      return made('not_found');
    case 'conflict':
      return made('conflict', { current: failure.current });
    case 'refused':
      return failure.invalid ? made('invalid_input', { body: failure.body }) : made('server_error');
    case 'not-offered':
    case 'busy':
    case 'site-error':
    case 'unexpected':
      return made('server_error');
    default:
      return unknownKind(failure);
  }
}

/** Turns an ApiError into the App API's failure vocabulary. */
export function toAppFailure(error: ApiError): AppFailure {
  const failure = classify(error);
  if (failure.kind === 'local') throw new Error('An ApiError classified as local.', { cause: error });
  return appFailureOf(failure);
}

/** A thrown error as the App API says it: a site's failure made an AppFailure, anything else as it is. */
export function asAppFailure(error: unknown): unknown {
  const failure = classify(error);
  return failure.kind === 'local' ? error : appFailureOf(failure);
}
