import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';
import { HttpError, notFound, renderError } from './errors.ts';
import type { Dialect } from './dialects.ts';

/** API paths (under /api/2.0) one dialect serves and the other answers 404, as a site that never had them. */
const ONLY_IN: Record<Dialect, readonly RegExp[]> = {
  dozuki: [/^\/search\//, /^\/user\/media\/(uploads|current)$/],
  ifixit: [/^\/suggest\//, /^\/user\/media\/images$/],
};

/**
 * Sets the dialect for the request (error bodies read it) and plays what differs before any route:
 * endpoints of the other dialect answer 404; an iFixit site refuses a sign-in without a known `X-App-Id`
 * with 400 "Invalid app id", as iFixit does.
 */
export function dialectMiddleware(
  apiPrefix: string,
  dialect: Dialect,
  appIds: readonly string[],
): MiddlewareHandler<AppEnv> {
  const other = dialect === 'dozuki' ? ONLY_IN.ifixit : ONLY_IN.dozuki;
  return async (c, next) => {
    c.set('dialect', dialect);
    const path = c.req.path.startsWith(apiPrefix) ? c.req.path.slice(apiPrefix.length) : null;
    if (path !== null && other.some((pattern) => pattern.test(path)))
      return renderError(notFound(`No such endpoint: ${c.req.path}`), c);
    if (dialect === 'ifixit' && path === '/user/token' && c.req.method === 'POST') {
      const appId = c.req.header('x-app-id')?.trim() ?? '';
      if (!appIds.includes(appId)) return renderError(new HttpError(400, 'Invalid app id'), c);
    }
    await next();
  };
}
