import type { Hono } from 'hono';
import type { ServerContext, ServerCounters } from '../context.ts';
import type { UserRow } from '../users/repo.ts';
import type { Dialect } from './dialects.ts';

/** Per-request values the middleware sets: the signed-in user and their token (or null), the counters, the dialect. */
export interface AppEnv {
  Variables: {
    user: UserRow | null;
    token: string | null;
    counters: ServerCounters;
    /** The dialect the site speaks (http/dialects.ts): error bodies and a few endpoints differ. */
    dialect: Dialect;
  };
}

export type ApiApp = Hono<AppEnv>;

/**
 * A route module registers its routes the normal Hono way. `api` is mounted at `/api/2.0` (register
 * `/teams`, not `/api/2.0/teams`); `site` is the site root, for media and other non-API paths.
 */
export type RouteModule = (api: ApiApp, ctx: ServerContext, site: ApiApp) => void;
