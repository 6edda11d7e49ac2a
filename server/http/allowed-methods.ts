import type { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';

/**
 * Which methods the app's registered routes answer for a path: the 405-or-404 decision for a request no
 * route took. Built from `app.routes` on first use, so it covers every route module without their help.
 */
export function allowedMethodsFinder(app: Hono<any>): (path: string) => string[] {
  let built: { router: TrieRouter<string>; methods: string[] } | undefined;
  const build = () => {
    const router = new TrieRouter<string>();
    const methods = new Set<string>();
    for (const route of app.routes) {
      if (route.method === 'ALL') continue; // middleware, not an endpoint
      router.add(route.method, route.path, route.method);
      methods.add(route.method);
    }
    return { router, methods: [...methods] };
  };
  return (path) => {
    built ??= build();
    const { router, methods } = built;
    const allowed = methods.filter((method) => router.match(method, path)[0].length > 0);
    if (allowed.includes('GET') && !allowed.includes('HEAD')) allowed.push('HEAD');
    return allowed;
  };
}
