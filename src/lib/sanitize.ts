import createDOMPurify, { type Config, type DOMPurify, type WindowLike } from 'dompurify';

/**
 * The one way server HTML reaches the page (through `components/common/SafeHtml.vue`).
 *
 * DOMPurify already drops event handlers, `javascript:` URLs and script-capable markup; on top of it:
 * - HTML only (no SVG or MathML), and no script, style, frames, plugins, forms or media elements: a guide's
 *   text needs none of them, and media come from the offline library, never from links inside text;
 * - every URL attribute must be http or https (no `data:`, no relative or protocol-less addresses, which
 *   would point into the app itself); links keep their text when their address is dropped;
 * - links open outside the app (`target=_blank`, `rel="noopener noreferrer"`);
 * - a `style` attribute that could fetch something (`url(`, `@import`, `expression(`) is dropped, so guide
 *   text never triggers a request the Content-Security-Policy would have to refuse.
 */
const FORBID_TAGS = [
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'form', 'input', 'button',
  'select', 'textarea', 'option', 'link', 'meta', 'base', 'img', 'picture', 'source', 'video', 'audio',
  'track', 'canvas', 'template', 'noscript', 'dialog',
];
const URL_ATTRIBUTES = ['href', 'src', 'srcset', 'action', 'formaction', 'poster', 'background', 'cite', 'longdesc', 'xlink:href', 'ping'];
const RISKY_STYLE = /url\s*\(|@import|expression\s*\(|image-set\s*\(/i;

const CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS,
  FORBID_ATTR: ['srcset', 'ping', 'formaction', 'action', 'background', 'poster'],
  ALLOW_DATA_ATTR: false,
  SANITIZE_NAMED_PROPS: true,
  ALLOWED_URI_REGEXP: /^https?:\/\//i,
};

export function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Renames event-handler attributes (`onerror=` to `data-defused-onerror=`) in the markup's tags before any
 * DOM parser sees it. Chromium checks the Content-Security-Policy as soon as a parser sets an inline
 * handler, even in an inert DOMParser document, and logs a violation for each, though nothing runs. This
 * pass keeps hostile guides from filling the console; it is not the safety net: DOMPurify still removes
 * every handler (and, with ALLOW_DATA_ATTR off, the renamed attributes too) whatever this pass misses.
 */
const OPENING_TAG = /<[a-zA-Z][^>]*>?/g;
const HANDLER_NAME = /([\s/"'])(on[a-z0-9_-]*)(?=\s*=|[\s/>]|$)/gi;
export function defuseHandlers(html: string): string {
  return html.replace(OPENING_TAG, (tag) => tag.replace(HANDLER_NAME, '$1data-defused-$2'));
}

function addHooks(purify: DOMPurify): DOMPurify {
  purify.addHook('afterSanitizeAttributes', (node) => {
    for (const name of URL_ATTRIBUTES) {
      const value = node.getAttribute(name);
      if (value !== null && !isWebUrl(value)) node.removeAttribute(name);
    }
    const style = node.getAttribute('style');
    if (style !== null && RISKY_STYLE.test(style)) node.removeAttribute('style');
    if (node.tagName === 'A') {
      if (node.hasAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      } else {
        node.removeAttribute('target');
        node.removeAttribute('rel');
      }
    }
  });
  return purify;
}

/** A sanitizer bound to a window (the page's, or jsdom's in tests). */
export function createSanitizer(window: WindowLike): (html: string) => string {
  const purify = addHooks(createDOMPurify(window));
  return (html) => purify.sanitize(defuseHandlers(html), CONFIG);
}

let pageSanitizer: ((html: string) => string) | null = null;

/** Server HTML made safe to show with `v-html`. */
export function sanitizeHtml(html: string | null | undefined): string {
  if (!html) return '';
  pageSanitizer ??= createSanitizer(window);
  return pageSanitizer(html);
}
