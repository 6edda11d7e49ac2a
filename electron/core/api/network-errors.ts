import { ApiError, type NetworkReason } from './errors.ts';

/**
 * A request to a site known not to answer just now (connection/reachability.ts): not sent, or a read
 * ended when the site was found gone. It fails at once instead of waiting out its time limit.
 */
export class SiteUnreachableError extends Error {
  override readonly name = 'SiteUnreachableError';
  constructor(options?: { cause?: unknown }) {
    super('The site does not answer just now.', options);
  }
}

/**
 * A request that got no answer, in a technician's words: what happened and what to check, never a system error code.
 */
export function networkError(
  error: unknown,
  resource: string,
  url: URL,
  timedOut: boolean,
  timeoutMs: number,
): ApiError {
  const made = (reason: NetworkReason, message: string): ApiError => {
    const failure = new ApiError(timedOut ? 'timeout' : 'network', resource, message, undefined, undefined, {
      cause: error,
    });
    failure.reason = reason;
    return failure;
  };
  if (timedOut)
    return made(
      'timeout',
      `${url.host} did not answer within ${Math.round(timeoutMs / 1000)} seconds: ` +
        `the site may be down or the network slow.`,
    );
  if (error instanceof SiteUnreachableError)
    return made(
      'unreachable',
      `${url.host} does not answer just now: this computer works from what it keeps, ` +
        `and asks the site again by itself.`,
    );
  if (error instanceof Error && error.name === 'AbortError')
    return made('cancelled', 'Cancelled before the site answered.');
  // In a technician's words: what happened and what to check, never a system or browser error code.
  const code = systemErrorCode(error) ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return made(
      'dns',
      `No site called ${url.hostname} could be found: ` +
        `check the address for a typing mistake, and that this computer has a network.`,
    );
  if (code === 'ECONNREFUSED')
    return made('refused', `Nothing answers at ${url.host}: check the address, or whether the site is running.`);
  if (/^(EPROTO|ERR_SSL|ERR_TLS|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_VERIFY)/.test(code)) {
    return made('tls', `${url.host} does not answer securely (https) at this address.`);
  }
  // Cut on the way (a reset: an unsteady Wi-Fi, a proxy): the address was right, the network was not steady.
  if (CUT_CODES.has(code) || /^UND_ERR_(SOCKET|CLOSED)$/.test(code))
    return made('other', `The connection to ${url.host} was cut before it answered: the network may be unsteady.`);
  return made('other', `Could not reach ${url.host}: check the address and the network.`);
}

/** Codes of a connection cut after it was made. */
const CUT_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** Codes that say no connection could be made at all: the site (or the network) is away, not one exchange lost. */
const AWAY_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EHOSTDOWN',
]);

/** Whether a failed exchange says the site is away (refused, no such name, no route), not a reset on the way. */
export function saysSiteAway(error: unknown): boolean {
  return AWAY_CODES.has(systemErrorCode(error) ?? '');
}

function systemErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    if ('code' in current && typeof current.code === 'string') return current.code;
    current = 'cause' in current ? current.cause : undefined;
  }
  return undefined;
}
