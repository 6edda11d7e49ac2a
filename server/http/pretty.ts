import type { MiddlewareHandler } from 'hono';

/** `?pretty` on any request: JSON answers (errors included) come back indented by two spaces (reference §1). */
export const prettyJson: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.req.query('pretty') === undefined) return;
  if (!c.res.headers.get('Content-Type')?.includes('application/json')) return;
  const text = await c.res.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return;
  }
  const headers = new Headers(c.res.headers);
  headers.delete('Content-Length');
  const { status, statusText } = c.res;
  // Assigning undefined first stops Hono from merging the old headers into the new response.
  c.res = undefined;
  c.res = new Response(`${JSON.stringify(body, null, 2)}\n`, { status, statusText, headers });
};
