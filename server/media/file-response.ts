import type { Context } from 'hono';

/**
 * A file answer with its Content-Type and Content-Length, honouring a single `Range: bytes=a-b`
 * (206, or 416 when it cannot be satisfied) so video elements can seek and downloads can resume.
 */
export function fileResponse(
  c: Context,
  bytes: Uint8Array,
  mime: string,
  extra: Record<string, string> = {},
): Response {
  const headers: Record<string, string> = {
    'Content-Type': mime,
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'public, max-age=86400',
    ...extra,
  };
  const range = /^bytes=(\d*)-(\d*)$/.exec(c.req.header('Range')?.trim() ?? '');
  if (range && (range[1] || range[2])) {
    const size = bytes.length;
    let start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
    let end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (!range[1]) end = size - 1;
    if (start >= size || start > end) {
      return new Response(null, {
        status: 416,
        headers: { ...headers, 'Content-Range': `bytes */${size}`, 'Content-Length': '0' },
      });
    }
    start = Math.max(0, start);
    const part = bytes.subarray(start, end + 1);
    return new Response(c.req.method === 'HEAD' ? null : (part as Uint8Array<ArrayBuffer>), {
      status: 206,
      headers: { ...headers, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Content-Length': String(part.length) },
    });
  }
  return new Response(c.req.method === 'HEAD' ? null : (bytes as Uint8Array<ArrayBuffer>), {
    status: 200,
    headers: { ...headers, 'Content-Length': String(bytes.length) },
  });
}
