import { classify } from '../api/failure.ts';
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
    const failure = classify(error);
    if (failure.kind === 'signed-out' || failure.kind === 'forbidden') {
      throw new AppFailure(
        'unauthorized',
        'This site shows its guides to its members only: sign in with your e-mail and password, or an API token.',
        { resource: failure.request, status: failure.status },
      );
    }
    throw error;
  }
}
