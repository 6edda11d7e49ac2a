import { API_PREFIX } from '../app.ts';

const LIST = `${API_PREFIX}/work_log`;

/**
 * Plays a site whose work-log list knows no `status` filter (SiteOptions `noStatusFilter`): api/public-shapes.md
 * names `guideid`, `userid`, `workorderid`, `limit` and `order` only, and the public way to the entries handed over
 * is a guide's own list (`GET /work_log/{guideid}/suspended`). The filter is dropped before the list is asked, so
 * the answer is what such a site sends: the caller's own newest entries of every status.
 */
export function noStatusFilter(fetch: (request: Request) => Response | Promise<Response>) {
  return (request: Request): Response | Promise<Response> => {
    const url = new URL(request.url);
    if (request.method !== 'GET' || url.pathname !== LIST || !url.searchParams.has('status')) return fetch(request);
    url.searchParams.delete('status');
    return fetch(new Request(url, { method: 'GET', headers: request.headers }));
  };
}
