import { ApiError, describeResource } from './errors.ts';
import type { Http, HttpAnswer, HttpInit } from './http.ts';

/** Redirects followed at most, for API calls and downloads alike. */
export const MAX_REDIRECTS = 3;
/** The largest JSON answer read: a guide is well under a megabyte; anything this big is hostile or broken. */
export const MAX_JSON_BYTES = 32 * 1024 * 1024;

/**
 * Fetches `url`, following redirects by hand so that nothing is sent where it should not go.
 * `api`: a redirect may move within the site's own origin (or upgrade it to https); one to another
 * origin is refused, so a sign-in's e-mail and password or the token never reach another host. A 303,
 * or a 301/302 after a POST, continues as a GET without the body.
 * `download`: a redirect may lead to a CDN, but the Authorization header goes only to `siteOrigin`;
 * `guard` refuses an address (throwing) before it is asked, and says whether its name must be checked
 * where it resolves.
 */
export async function fetchFollowing(
  http: Http,
  url: URL,
  init: HttpInit,
  how: {
    kind: 'api' | 'download';
    siteOrigin: string;
    resource: string;
    guard?: (url: URL) => { resolveCheck: boolean };
  },
): Promise<{ response: HttpAnswer; url: URL }> {
  let target = url;
  let request: HttpInit = init;
  for (let hops = 0; ; hops++) {
    // Every hop of a download is checked: a redirect must not lead where the first address could not.
    if (how.guard) request = { ...request, guarded: how.guard(target).resolveCheck };
    const response = await http(target, request);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || response.status === 304 || !location)
      return { response, url: target };
    response.cancel();
    const next = new URL(location, target);
    const upgrade = next.protocol === 'https:' && next.host === target.host;
    if (how.kind === 'api' && next.origin !== target.origin && !upgrade) {
      throw new ApiError(
        'http',
        how.resource,
        `The site sent the request ${describeResource(how.resource)} on to another ` +
          `address (${next.host}); it was not followed, so nothing was sent there.`,
        response.status,
      );
    }
    if (hops + 1 > MAX_REDIRECTS)
      throw new ApiError(
        'http',
        how.resource,
        `The site redirected more than ${MAX_REDIRECTS} times ${describeResource(how.resource)}.`,
        response.status,
      );
    if (!['http:', 'https:'].includes(next.protocol))
      throw new ApiError(
        'http',
        how.resource,
        `The site redirected to a ${next.protocol} address, which is not followed.`,
        response.status,
      );
    const headers = { ...request.headers };
    if (next.origin !== how.siteOrigin) delete headers.Authorization;
    const toGet =
      response.status === 303 || ((response.status === 301 || response.status === 302) && request.method === 'POST');
    if (toGet) delete headers['Content-Type'];
    request = { ...request, headers, ...(toGet ? { method: 'GET', body: undefined } : {}) };
    target = next;
  }
}

/** The body as text, read no further than `maxBytes` (a Content-Length above it is refused unread). */
export async function readCapped(response: HttpAnswer, maxBytes: number, resource: string): Promise<string> {
  const tooLarge = (): ApiError =>
    new ApiError(
      'bad_response',
      resource,
      `The site's answer ${describeResource(resource)} is larger ` +
        `than ${Math.round(maxBytes / 1024 / 1024)} MB and was not read.`,
      response.status,
    );
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    response.cancel();
    throw tooLarge();
  }
  // Counted as sent and decoded: a small compressed answer that unpacks past the cap is stopped there.
  const bytes = await response.bytes(maxBytes);
  if (bytes === null) throw tooLarge();
  return bytes.toString('utf8');
}
