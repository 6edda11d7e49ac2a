/**
 * The renderer's Content-Security-Policy, sent by both shells with every page and asset.
 * - scripts only from the app itself: no inline script, no eval, nothing remote; WebAssembly may be
 *   compiled ('wasm-unsafe-eval', which allows no JavaScript eval) because the scanner's barcode reader
 *   is the app's own .wasm, served from 'self' like its scripts;
 * - images and video from the app, the local media store (`fg-media:` in Electron, `/media` in the web
 *   shell, both 'self' or the scheme) and data/blob URLs the app makes itself;
 * - `style-src 'unsafe-inline'` because sanitised guide HTML and SurveyJS carry style attributes; styles
 *   cannot run code;
 * - the renderer talks only to its own shell (`connect-src 'self'`), never to the site directly.
 */
import { MEDIA_SCHEME } from '../../contract.ts';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  `img-src 'self' data: blob: ${MEDIA_SCHEME}:`,
  `media-src 'self' blob: ${MEDIA_SCHEME}:`,
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
  "worker-src 'self'",
].join('; ');

/** Headers every renderer response carries in either shell. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};
