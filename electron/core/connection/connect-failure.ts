import { appFailureOf } from '../api/app-failure.ts';
import { classify, isAppIdRefusal, type SiteFailure } from '../api/failure.ts';
import { AppFailure } from '../result.ts';

/** Why connecting to `siteUrl` failed, in a technician's words: no method, path or error code. */
export function connectFailure(
  failure: SiteFailure,
  siteUrl: string,
  how: 'sign-in' | 'token',
  appId: string | null = null,
): AppFailure {
  const reason = failure.kind === 'unreachable' ? failure.reason : failure.kind === 'timeout' ? 'timeout' : null;
  const details = {
    resource: failure.request,
    ...(failure.status ? { status: failure.status } : {}),
    ...(reason ? { reason } : {}),
  };
  const cause = { cause: failure.error };
  if (reason === 'cancelled')
    return new AppFailure('cancelled', 'Connecting was cancelled. Nothing was changed.', details, cause);
  if (isAppIdRefusal(failure)) {
    const said = 'words' in failure ? failure.words : null;
    const message = appId
      ? `The site did not accept the application id "${appId}" (it said: ${said}). ` +
        "Check the id with the site's administrator, correct it under Advanced, and sign in again."
      : `This site wants an application id before it lets anyone sign in (it said: ${said}). ` +
        "Ask the site's administrator for the id to use with Fieldguide, enter it under Advanced, and sign in again.";
    return new AppFailure('invalid_input', message, { ...details, needs: 'app_id' }, cause);
  }
  switch (failure.kind) {
    case 'unreachable':
    case 'timeout': {
      // https typed to a site that has no certificate: what to type instead (it said only "does not answer securely").
      const plain =
        reason === 'tls' && siteUrl.startsWith('https:')
          ? ' A workshop server without a certificate is reached with http:// at the start of its address.'
          : '';
      return new AppFailure('offline', `${failure.message}${plain}`, details, cause);
    }
    case 'signed-out': {
      const refused =
        how === 'sign-in' ? 'The site refused the e-mail and password.' : 'The site refused this API token.';
      return new AppFailure('unauthorized', refused, details, cause);
    }
    case 'unexpected':
    case 'gone':
    case 'not-offered': {
      const host = new URL(siteUrl).host;
      const message = `${host} answers, but it is not a Dozuki documentation site (API 2.0): check the address.`;
      return new AppFailure('not_found', message, details, cause);
    }
    default:
      return appFailureOf(failure);
  }
}

/** The connect call waiting for a site's answer, which Cancel stops; its failure explained (connectFailure). */
export class ConnectAttempts {
  #attempt: AbortController | null = null;

  cancel(): void {
    this.#attempt?.abort();
  }

  /** Runs `run`; a failure is told to `failed` (the site in use says something of the network) and thrown explained. */
  async run<T>(
    run: (signal: AbortSignal) => Promise<T>,
    siteUrl: string,
    how: 'sign-in' | 'token',
    failed: (failure: AppFailure) => void,
    appId: string | null = null,
  ): Promise<T> {
    this.#attempt?.abort();
    const attempt = new AbortController();
    this.#attempt = attempt;
    try {
      return await run(attempt.signal);
    } catch (error) {
      const failure = classify(error);
      if (failure.kind === 'local') throw error;
      const told = connectFailure(failure, siteUrl, how, appId);
      failed(told);
      throw told;
    } finally {
      if (this.#attempt === attempt) this.#attempt = null;
    }
  }
}
