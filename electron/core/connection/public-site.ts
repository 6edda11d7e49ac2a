import { ApiError } from '../api/errors.ts';
import type { ApiTransport } from '../api/transport.ts';
import { AppFailure } from '../result.ts';

/**
 * A site read without an account (iFixit's public site): it must list its guides to anyone. A site that
 * asks for a sign-in first says so in plain words; any other failure is the connect's usual one.
 */
export async function checkPublicSite(transport: ApiTransport, signal?: AbortSignal): Promise<void> {
  try {
    await transport.request('GET', '/guides', { query: { limit: 1 }, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'http' && (error.status === 401 || error.status === 403)) {
      throw new AppFailure(
        'unauthorized',
        'This site shows its guides to its members only: sign in with your e-mail and password, or an API token.',
        {
          resource: error.resource,
          status: error.status,
        },
      );
    }
    throw error;
  }
}
