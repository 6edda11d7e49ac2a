import type { Http } from '../../electron/core/api/http.ts';

/**
 * A scripted site as a fetch function (answers made with `new Response`), as the app's HTTP: for unit
 * tests of what the app does with an answer. Everything that crosses a real connection goes through the
 * app's own HTTP (api/http.ts) instead.
 */
export function fetchHttp(fetcher: (input: string, init: RequestInit) => Promise<Response>): Http {
  return async (url, init) => {
    const body =
      init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : new Uint8Array(init.body);
    const response = await fetcher(url.href, {
      method: init.method ?? 'GET',
      headers: init.headers,
      body,
      signal: init.signal,
      redirect: 'manual',
    });
    const stream = response.body;
    return {
      status: response.status,
      ok: response.ok,
      headers: response.headers,
      body: stream ?? (async function* () {})(),
      bytes: async (limit) => {
        const data = Buffer.from(await response.arrayBuffer());
        return data.byteLength > limit ? null : data;
      },
      cancel: () => void stream?.cancel().catch(() => undefined),
    };
  };
}
