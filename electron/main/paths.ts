import path from 'node:path';

/**
 * The file a URL path names inside `root`, or null when it would leave `root` (`..`, encoded slashes,
 * absolute paths). Used by the app:// protocol; media are looked up by URL in the library instead.
 */
export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const base = path.resolve(root);
  const wanted = path.resolve(base, `.${path.posix.sep}${decoded.replace(/^\/+/, '')}`);
  return wanted === base || wanted.startsWith(base + path.sep) ? wanted : null;
}
