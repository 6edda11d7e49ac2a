/**
 * An address a browser may open outside the app: http and https only, anything else is null (a
 * `javascript:`, `data:` or `file:` address of a site's guide never leaves as a link). Both the core's
 * mapping of the site's answers and the renderer's links read addresses so.
 */
export function webAddress(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}
