import { Hono } from 'hono';
import { compress } from 'hono/compress';
import type { ServerContext } from './context.ts';
import { accessMiddleware } from './http/access.ts';
import { allowedMethodsFinder } from './http/allowed-methods.ts';
import { authMiddleware } from './http/auth.ts';
import { dialectMiddleware } from './http/dialect.ts';
import type { AppEnv } from './http/env.ts';
import { methodNotAllowed, notFound, renderError } from './http/errors.ts';
import { prettyJson } from './http/pretty.ts';
import { isPublicMedia, type MediaKind } from './media/access.ts';
import { mediaOwnerByGuid } from './media/repo.ts';
import { mediaElsewhere, membersOnly, withoutModules } from './http/site-switches.ts';
import { ROUTES } from './routes/index.ts';
import { registerTestHooks } from './testing/routes.ts';

export const API_PREFIX = '/api/2.0';

/** The whole site: the API under `/api/2.0`, whatever route modules serve at the root, and test hooks if asked. */
export function createApp(ctx: ServerContext): Hono<AppEnv> {
  const site = new Hono<AppEnv>();
  // First: every answer, errors included, is in the site's dialect.
  site.use('*', dialectMiddleware(API_PREFIX, ctx.options.dialect, ctx.options.appIds));
  // JSON answers gzip-compressed for clients that accept it, as real sites answer (media are sent as they are).
  site.use('*', compress({ contentTypeFilter: /^application\/json/ }));
  site.use('*', prettyJson);
  // Host allow-list, foreign Origins refused, CORS only for configured origins: before anything else runs.
  site.use('*', ...accessMiddleware(ctx.options.access));
  site.use('*', async (c, next) => {
    c.set('counters', ctx.counters);
    await next();
    // The site's clock, as clients learn it: a test that sets it (/__test/clock), or a node whose clock
    // is off (--clock-offset), is seen in every answer.
    c.header('Date', new Date(ctx.clock.now() * 1000).toUTCString());
  });
  site.use('*', authMiddleware(ctx.db));
  // The switches that play other sites: modules it lacks, members only, media on another origin.
  if (ctx.options.without.length > 0) site.use('*', withoutModules(API_PREFIX, ctx.options.without));
  if (!ctx.options.publicReads) site.use('*', membersOnly(API_PREFIX));
  const publicMedia = (kind: MediaKind, guid: string): boolean => {
    const media = mediaOwnerByGuid(ctx.db, kind, guid);
    return media !== undefined && isPublicMedia(ctx.db, kind, media);
  };
  site.use('*', mediaElsewhere(ctx.options.mediaOrigin, publicMedia));

  // basePath shares the router with `site`, so routes added to `api` later are served too.
  const api = site.basePath(API_PREFIX);
  for (const register of ROUTES) register(api, ctx, site);
  if (ctx.options.testHooks) registerTestHooks(site, ctx);

  const allowedMethods = allowedMethodsFinder(site);
  site.notFound((c) => {
    const allowed = allowedMethods(c.req.path);
    return renderError(
      allowed.length ? methodNotAllowed(c.req.method, allowed) : notFound(`No such endpoint: ${c.req.path}`),
      c,
    );
  });
  site.onError(renderError);
  return site;
}
