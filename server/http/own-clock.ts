import { API_PREFIX } from '../app.ts';

/** The work-log writes whose body may say when the technician acted (DESIGN.md §7): start, transitions, step data. */
const TIMED = new RegExp(`^${API_PREFIX}/work_log(/\\d+/(stepData|finish|cancel|pause|resume|suspend|assume))?$`);

/**
 * Plays a site that keeps the work log on its own clock (SiteOptions `ownClock`): it does not know the project's
 * `timestamp` (a real Dozuki start is `{guideid, workorderid}`, api/public-shapes.md), so the field is taken
 * out of the body and the site records when it applied the write. A start the client looks for after a lost
 * answer then carries the site's time, not the one it was sent with.
 */
export function ownClock(fetch: (request: Request) => Response | Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    if (request.method === 'GET' || !TIMED.test(new URL(request.url).pathname)) return fetch(request);
    const text = await request.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fetch(new Request(request.url, { method: request.method, headers: request.headers, body: text }));
    }
    if (typeof body === 'object' && body !== null && !Array.isArray(body))
      delete (body as Record<string, unknown>).timestamp;
    const headers = new Headers(request.headers);
    headers.delete('content-length');
    return fetch(new Request(request.url, { method: request.method, headers, body: JSON.stringify(body) }));
  };
}
