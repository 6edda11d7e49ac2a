import { ApiError, describeResource } from './errors.ts';

/** Redirects followed at most, for API calls and downloads alike. */
export const MAX_REDIRECTS = 3;
/** The largest JSON answer read: a guide is well under a megabyte; anything this big is hostile or broken. */
export const MAX_JSON_BYTES = 32 * 1024 * 1024;

type Init = Omit<RequestInit, 'headers' | 'redirect'> & { headers: Record<string, string> };

/**
 * Fetches `url`, following redirects by hand so that nothing is sent where it should not go.
 * `api`: a redirect may move within the site's own origin (or upgrade it to https); one to another
 * origin is refused, so a sign-in's e-mail and password or the token never reach another host. A 303,
 * or a 301/302 after a POST, continues as a GET without the body.
 * `download`: a redirect may lead to a CDN, but the Authorization header goes only to `siteOrigin`.
 */
export async function fetchFollowing(
  fetcher: typeof fetch,
  url: URL,
  init: Init,
  how: { kind: 'api' | 'download'; siteOrigin: string; resource: string },
): Promise<{ response: Response; url: URL }> {
  let target = url;
  let request: Init = init;
  for (let hops = 0; ; hops++) {
    const response = await fetcher(target, { ...request, redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || response.status === 304 || !location) return { response, url: target };
    await response.body?.cancel().catch(() => undefined);
    const next = new URL(location, target);
    const upgrade = next.protocol === 'https:' && next.host === target.host;
    if (how.kind === 'api' && next.origin !== target.origin && !upgrade) {
      throw new ApiError(
        'http',
        how.resource,
        `The site sent the request ${describeResource(how.resource)} on to another address (${next.host}); it was not followed, so nothing was sent there.`,
        response.status,
      );
    }
    if (hops + 1 > MAX_REDIRECTS) throw new ApiError('http', how.resource, `The site redirected more than ${MAX_REDIRECTS} times ${describeResource(how.resource)}.`, response.status);
    if (!['http:', 'https:'].includes(next.protocol)) throw new ApiError('http', how.resource, `The site redirected to a ${next.protocol} address, which is not followed.`, response.status);
    const headers = { ...request.headers };
    if (next.origin !== how.siteOrigin) delete headers.Authorization;
    const toGet = response.status === 303 || ((response.status === 301 || response.status === 302) && request.method === 'POST');
    if (toGet) delete headers['Content-Type'];
    request = { ...request, headers, ...(toGet ? { method: 'GET', body: undefined } : {}) };
    target = next;
  }
}

/** The body as text, read no further than `maxBytes` (a Content-Length above it is refused unread). */
export async function readCapped(response: Response, maxBytes: number, resource: string): Promise<string> {
  const tooLarge = (): ApiError =>
    new ApiError('bad_response', resource, `The site's answer ${describeResource(resource)} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB and was not read.`, response.status);
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
