import { ApiError, errorBodyMessage, isAppIdRefusal, toAppFailure } from '../api/errors.ts';
import { AppFailure } from '../result.ts';

/** Why connecting to `siteUrl` failed, in a technician's words: no method, path or error code. */
export function connectFailure(
  error: ApiError,
  siteUrl: string,
  how: 'sign-in' | 'token',
  appId: string | null = null,
): AppFailure {
  const details = {
    resource: error.resource,
    ...(error.status ? { status: error.status } : {}),
    ...(error.reason ? { reason: error.reason } : {}),
  };
  if (error.reason === 'cancelled')
    return new AppFailure('cancelled', 'Connecting was cancelled. Nothing was changed.', details, { cause: error });
  if (isAppIdRefusal(error)) {
    const said = errorBodyMessage(error.body);
    const message = appId
      ? `The site did not accept the application id "${appId}" (it said: ${said}). ` +
        "Check the id with the site's administrator, correct it under Advanced, and sign in again."
      : `This site wants an application id before it lets anyone sign in (it said: ${said}). ` +
        "Ask the site's administrator for the id to use with Fieldguide, enter it under Advanced, and sign in again.";
    return new AppFailure('invalid_input', message, { ...details, needs: 'app_id' }, { cause: error });
  }
  if (error.kind === 'network' || error.kind === 'timeout')
    return new AppFailure('offline', error.message, details, { cause: error });
  if (error.kind === 'http' && error.status === 401) {
    const refused =
      how === 'sign-in' ? 'The site refused the e-mail and password.' : 'The site refused this API token.';
    return new AppFailure('unauthorized', refused, details, { cause: error });
  }
  if (error.kind === 'bad_response' || (error.kind === 'http' && (error.status === 404 || error.status === 405))) {
    const host = new URL(siteUrl).host;
    return new AppFailure(
      'not_found',
      `${host} answers, but it is not a Dozuki documentation site (API 2.0): check the address.`,
      details,
      { cause: error },
    );
  }
  return toAppFailure(error);
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
      if (!(error instanceof ApiError)) throw error;
      const failure = connectFailure(error, siteUrl, how, appId);
      failed(failure);
      throw failure;
    } finally {
      if (this.#attempt === attempt) this.#attempt = null;
    }
  }
}
