import path from 'node:path';
import { net, protocol } from 'electron';
import { pathToFileURL } from 'node:url';
import { MEDIA_DOWNLOAD_PARAM, MEDIA_HOST, MEDIA_LIVE_PARAM, MEDIA_OR_PARAM, MEDIA_SCHEME } from '../contract.ts';
import { mediaHeaders, SECURITY_HEADERS, type Services } from '../core/services.ts';
import { resolveInside } from './paths.ts';
import { APP_HOST, APP_SCHEME } from './window-options.ts';

/** Must run before `app` is ready: makes `app://` a standard, secure origin with fetch support. */
export function registerAppSchemePrivileges(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
    { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, stream: true } },
  ]);
}

/**
 * Serves media at `desktopMediaUrl(<site URL>, options)`: what the library indexed, a picture from its
 * database or a file from the media folder, or what services.openMedia may fetch from the site for the
 * address (only media the library knows), or a stored alternative the address names.
 */
export function serveMedia(open: Services['openMedia']): void {
  protocol.handle(MEDIA_SCHEME, async (request) => {
    const url = new URL(request.url);
    let target: string;
    try {
      target = decodeURIComponent(url.pathname.replace(/^\//, ''));
    } catch {
      return new Response('Bad media address', { status: 400 });
    }
    const wanted = {
      urls: [target, ...url.searchParams.getAll(MEDIA_OR_PARAM)],
      live: url.searchParams.get(MEDIA_LIVE_PARAM) === '1',
    };
    const file = url.host === MEDIA_HOST ? await open(wanted) : null;
    if (!file) return new Response('Not on this computer', { status: 404 });
    const headers = mediaHeaders(file, target, url.searchParams.get(MEDIA_DOWNLOAD_PARAM) === '1');
    if (file.data) return new Response(new Uint8Array(file.data), { status: 200, headers });
    const response = await net.fetch(pathToFileURL(file.path).toString());
    return new Response(response.body, { status: 200, headers });
  });
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
