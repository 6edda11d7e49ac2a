/**
 * Plays a site whose images are not resized yet: every image object of a JSON answer carries only `id`,
 * `guid` and `original`. iFixit's OpenAPI description: "Ungenerated sizes are omitted from the object;
 * `id`, `guid`, and `original` are always present", and an upload "returns before all resized variants
 * have been generated". The answers go out uncompressed (the JSON is rewritten after the app's answer).
 */
export function unsizedImages(fetch: (request: Request) => Response | Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    const headers = new Headers(request.headers);
    headers.delete('accept-encoding');
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.arrayBuffer();
    const answer = await fetch(new Request(request.url, { method: request.method, headers, body }));
    if (!answer.headers.get('content-type')?.includes('application/json')) return answer;
    const json: unknown = await answer.json();
    const out = new Headers(answer.headers);
    out.delete('content-length');
    return new Response(JSON.stringify(unsized(json)), { status: answer.status, headers: out });
  };
}

const isImage = (value: Record<string, unknown>): boolean =>
  typeof value.guid === 'string' && typeof value.original === 'string' && 'id' in value;

function unsized(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unsized);
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  if (isImage(object)) return { id: object.id, guid: object.guid, original: object.original };
  return Object.fromEntries(Object.entries(object).map(([key, inner]) => [key, unsized(inner)]));
}
