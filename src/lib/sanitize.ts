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
 * - a `style` attribute keeps only an allow-list of text properties (colour, weight, emphasis, alignment),
 *   read back from the browser's own CSS parser, so an escaped `\75 rl(` is seen as the `url(` it is; nothing
 *   that could fetch, position or layer (no `url()`, no `position`, no `z-index`) survives. SafeHtml also
 *   contains what it shows (`contain: paint`), so guide HTML can never cover the app.
 */
const FORBID_TAGS = [
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'form',
  'input',
  'button',
  'select',
  'textarea',
  'option',
  'link',
  'meta',
  'base',
  'img',
  'picture',
  'source',
  'video',
  'audio',
  'track',
  'canvas',
  'template',
  'noscript',
  'dialog',
];
const URL_ATTRIBUTES = [
  'href',
  'src',
  'srcset',
  'action',
  'formaction',
  'poster',
  'background',
  'cite',
  'longdesc',
  'xlink:href',
  'ping',
];
const STYLE_PROPERTIES = new Set([
  'color',
  'background-color',
  'font-weight',
  'font-style',
  'text-align',
  'vertical-align',
  'text-decoration',
  'text-decoration-line',
  'text-decoration-color',
  'text-decoration-style',
]);
/** Values may name colours and keywords; the only functions are colour functions. */
const SAFE_VALUE = /^(?:[\w\s#%.,-]|(?:rgba?|hsla?)\([\d\s.,%/-]*\))*$/i;

/** The declarations of `style` worth keeping, as the browser parsed them (escapes resolved). */
function keptStyle(node: Element): string | null {
  const style = (node as HTMLElement).style;
  if (!style) return null;
  const kept: string[] = [];
  for (let index = 0; index < style.length; index++) {
    const property = style.item(index).toLowerCase();
    const value = style.getPropertyValue(property).trim();
    // A value that calls anything but a colour function (url(), image-set(), var(), expression()) is an
    // attempt to fetch or to smuggle: the whole attribute goes.
    if (!SAFE_VALUE.test(value)) return null;
    if (STYLE_PROPERTIES.has(property)) kept.push(`${property}: ${value}`);
  }
  return kept.length > 0 ? kept.join('; ') : null;
}

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
    if (node.hasAttribute('style')) {
      const kept = keptStyle(node);
      if (kept === null) node.removeAttribute('style');
      else node.setAttribute('style', kept);
    }
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
