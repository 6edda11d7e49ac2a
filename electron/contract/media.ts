import { READ_KEY_PARAM } from './shells.ts';

/**
 * Local media, by the site URL they were downloaded from: `fg-media://media/<encoded URL>` in the desktop
 * app, `/media/<encoded URL>` in the web shell. Both serve what the library downloaded, and two things more
 * the address may ask for:
 * - `?or=<URL>` (repeatable): alternatives, tried in order when the first is not stored (the lightbox asks
 *   for the original, then the large variant, then the step size: it gets the best one stored);
 * - `?live=1`: the first URL may come from the site while it answers, when it is not stored. Only media
 *   the library knows are fetched (every variant of a stored guide's pictures, the media of a guide read
 *   from the site): the route is never a way to reach any other address;
 * - `?download=1`: the answer is an attachment (a guide's documents are saved or opened by the system's
 *   viewer, never shown as a page of the app).
 * Media are data: only pictures, video, PDF and plain text keep their type; everything else is answered
 * as opaque bytes, as an attachment; every answer is sandboxed, nosniff and same-origin only.
 * The renderer never fetches the site itself: its Content-Security-Policy allows only its own shell.
 */
export const MEDIA_SCHEME = 'fg-media';
export const MEDIA_HOST = 'media';
export const MEDIA_ROUTE = '/media/';
export const MEDIA_OR_PARAM = 'or';
export const MEDIA_LIVE_PARAM = 'live';
export const MEDIA_DOWNLOAD_PARAM = 'download';
export const DESKTOP_MEDIA_PREFIX = `${MEDIA_SCHEME}://${MEDIA_HOST}/`;

/** What a media address asks for beyond its first URL. */
export interface MediaOptions {
  or?: readonly string[];
  live?: boolean;
  /** Saved as a file, never shown as a page (a guide's documents). */
  download?: boolean;
  /** The web shell's read key (LAUNCH_ROUTE); the desktop app needs none. */
  key?: string;
}

const mediaQuery = (options: MediaOptions | undefined): string => {
  const params = (options?.or ?? []).map((url) => `${MEDIA_OR_PARAM}=${encodeURIComponent(url)}`);
  if (options?.live) params.push(`${MEDIA_LIVE_PARAM}=1`);
  if (options?.download) params.push(`${MEDIA_DOWNLOAD_PARAM}=1`);
  if (options?.key) params.push(`${READ_KEY_PARAM}=${encodeURIComponent(options.key)}`);
  return params.length > 0 ? `?${params.join('&')}` : '';
};
export const desktopMediaUrl = (siteUrl: string, options?: MediaOptions): string =>
  `${DESKTOP_MEDIA_PREFIX}${encodeURIComponent(siteUrl)}${mediaQuery(options)}`;
export const webMediaUrl = (siteUrl: string, options?: MediaOptions): string =>
  `${MEDIA_ROUTE}${encodeURIComponent(siteUrl)}${mediaQuery(options)}`;
