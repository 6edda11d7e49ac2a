/**
 * Media are data, never code. Only the types the app's views show keep their type: pictures, video, PDF
 * and plain text. Anything else a site sends (HTML, script, SVG, an archive) is kept and served as
 * `application/octet-stream`, as an attachment, so no site file can ever become a page or a script of the
 * app's origin. Every media answer also carries a sandboxing policy, nosniff and a same-origin resource
 * policy (no other website can probe which media are stored).
 */
const SHOWN_TYPES = /^(image\/(png|jpeg|gif|webp|avif)|video\/(mp4|webm)|application\/pdf|text\/plain)$/;
export const DATA_TYPE = 'application/octet-stream';

/** The type a media file is kept and served with: the site's, when a view shows that type; otherwise opaque bytes. */
export function shownType(siteType: string | null | undefined): string {
  const base = (siteType ?? '').split(';')[0]!.trim().toLowerCase();
  return SHOWN_TYPES.test(base) ? base : DATA_TYPE;
}

/** A file name safe in a header, from the last part of the site's address. */
function attachmentName(url: string): string {
  let name = 'download';
  try {
    name = decodeURIComponent(new URL(url).pathname.split('/').pop() || name);
  } catch {
    // keep the plain name
  }
  return name.replace(/[^\w.-]+/g, '_').slice(0, 120) || 'download';
}

/**
 * The headers of every media answer, in both shells. `download`: the renderer asked for the file to be
 * saved (a guide's document in the web shell); opaque bytes are always an attachment.
 */
export function mediaHeaders(
  answer: { mime: string; bytes: number },
  siteUrl: string,
  download: boolean,
): Record<string, string> {
  const mime = shownType(answer.mime);
  const headers: Record<string, string> = {
    'Content-Type': mime,
    'Content-Length': String(answer.bytes),
    'Content-Security-Policy':
      "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'",
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  if (download || mime === DATA_TYPE)
    headers['Content-Disposition'] = `attachment; filename="${attachmentName(siteUrl)}"`;
  return headers;
}
