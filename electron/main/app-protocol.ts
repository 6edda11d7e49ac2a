import path from 'node:path';
import { net, protocol } from 'electron';
import { pathToFileURL } from 'node:url';
import { SECURITY_HEADERS } from '../core/security/csp.ts';
import { resolveInside } from './paths.ts';
import { APP_HOST, APP_SCHEME } from './window-options.ts';

/** Must run before `app` is ready: makes `app://` a standard, secure origin with fetch support. */
export function registerAppSchemePrivileges(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/**
 * Serves the built renderer at `app://fieldguide/`, with the Content-Security-Policy on every response.
 * Paths are resolved inside `rendererDir`; anything that escapes it is a 404. Unknown paths get the app
 * shell (the renderer routes in its own history).
 */
export function serveRenderer(rendererDir: string): void {
  const root = path.resolve(rendererDir);
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return new Response('Not found', { status: 404 });
    const wanted = resolveInside(root, url.pathname);
    if (wanted === null) return new Response('Not found', { status: 404 });
    let response = await net.fetch(pathToFileURL(wanted).toString()).catch(() => null);
    if (!response || !response.ok || !path.extname(wanted)) {
      response = await net.fetch(pathToFileURL(path.join(root, 'index.html')).toString());
    }
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) headers.set(name, value);
    return new Response(response.body, { status: response.status, headers });
  });
}
