import { defuseHandlers, isWebUrl } from './sanitize.ts';

/**
 * The address an embed's HTML points at (an iframe's `src`, else the first link), http or https only.
 * The HTML is parsed inert (DOMParser runs no script and loads nothing) and never put on the page:
 * embeds are shown as a link that opens outside the app.
 */
export function embedTarget(html: string): string | null {
  const doc = new DOMParser().parseFromString(defuseHandlers(html), 'text/html');
  const candidates = [
    ...Array.from(doc.querySelectorAll('iframe[src], embed[src], video[src], source[src]'), (el) =>
      el.getAttribute('src'),
    ),
    ...Array.from(doc.querySelectorAll('a[href]'), (el) => el.getAttribute('href')),
  ];
  for (const candidate of candidates) {
    if (candidate && isWebUrl(candidate)) return new URL(candidate.trim()).href;
  }
  return null;
}

/** The title an embed gives itself, if any (an iframe's `title`). */
export function embedTitle(html: string): string | null {
  const doc = new DOMParser().parseFromString(defuseHandlers(html), 'text/html');
  const title = doc.querySelector('iframe[title]')?.getAttribute('title')?.trim();
  return title || null;
}
