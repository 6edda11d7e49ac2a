import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';
import { notFound, renderError, unauthorized } from './errors.ts';
import type { ServerModule } from './site-modules.ts';
import type { MediaKind } from '../media/access.ts';

/** The API paths (under /api/2.0) of each module. */
const MODULE_PATHS: Record<ServerModule, RegExp> = {
  step_forms: /^\/step_forms(\/|$)/,
  quizzes: /^\/quizzes(\/|$)/,
  work_log: /^\/work_log(\/|$)/,
  tags: /^(\/tags(\/|$)|\/guides\/[^/]+\/tags(\/|$))/,
  categories: /^(\/categories(\/|$)|\/wikis\/CATEGORY(\/|$))/i,
  comments: /^\/comments(\/|$)/,
  user_media: /^\/user\/media(\/|$)/,
  search: /^\/(search|suggest)(\/|$)/,
};

/** Endpoints of the modules the site lacks answer 404, as on a site that never had them. */
export function withoutModules(apiPrefix: string, without: readonly ServerModule[]): MiddlewareHandler<AppEnv> {
  const patterns = without.map((module) => MODULE_PATHS[module]);
  return async (c, next) => {
    const path = c.req.path.startsWith(apiPrefix) ? c.req.path.slice(apiPrefix.length) : null;
    if (path !== null && patterns.some((pattern) => pattern.test(path)))
      return renderError(notFound(`No such endpoint: ${c.req.path}`), c);
    await next();
  };
}

/** A members-only site: nothing of the API but signing in answers a caller without a token (401). */
export function membersOnly(apiPrefix: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path;
    if (
      path.startsWith(apiPrefix) &&
      c.get('user') === null &&
      !(path === `${apiPrefix}/user/token` && c.req.method === 'POST')
    ) {
      return renderError(unauthorized(), c);
    }
    await next();
  };
}

/** Paths of media files (server/media/json.ts): the only things a media origin serves. */
export const MEDIA_PATH = /^\/(igi|video|documents|flags)\//;

const KIND_OF_PATH = { igi: 'image', video: 'video', documents: 'document' } as const;

/**
 * Media on another origin (a CDN): every address of a file anyone may have (`isPublic`) in a JSON answer
 * points at `mediaOrigin()` instead of the site, as iFixit's point at its CDN. A CDN takes no credentials,
 * so the files of private guides and technicians' uploads stay on the site, behind the token.
 */
export function mediaElsewhere(
  mediaOrigin: () => string | null,
  isPublic: (kind: MediaKind, guid: string) => boolean,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const media = mediaOrigin();
    if (!media || !c.res.headers.get('Content-Type')?.includes('application/json')) return;
    const site = new URL(c.req.url).origin;
    const text = await c.res.clone().text();
    const known = new Map<string, boolean>();
    const pattern = new RegExp(`${escape(site)}(/(igi|video|documents)/([A-Za-z0-9]+))`, 'g');
    const moved = text.replace(pattern, (address, path: string, where: keyof typeof KIND_OF_PATH, guid: string) => {
      const key = `${where}/${guid}`;
      if (!known.has(key)) known.set(key, isPublic(KIND_OF_PATH[where], guid));
      return known.get(key) ? `${media}${path}` : address;
    });
    if (moved === text) return;
    const headers = new Headers(c.res.headers);
    headers.delete('Content-Length');
    const { status, statusText } = c.res;
    c.res = undefined;
    c.res = new Response(moved, { status, statusText, headers });
  };
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
