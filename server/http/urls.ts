import type { Context } from 'hono';

/** The site's own address as the client reached it (`http://127.0.0.1:PORT`), for absolute URLs in bodies. */
export function siteOrigin(c: Context): string {
  return new URL(c.req.url).origin;
}
