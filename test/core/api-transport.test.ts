import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, SignedOutHere } from '../../electron/core/api/errors.ts';
import { toAppFailure } from '../../electron/core/api/app-failure.ts';
import { classify, mayPass, noAnswer } from '../../electron/core/api/failure.ts';
import { ApiTransport } from '../../electron/core/api/transport.ts';
import { fetchCompletions } from '../../electron/core/api/marks-api.ts';

// A real HTTP server on loopback whose answers each test chooses: the transport's behaviour on the wire.
type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;
let handler: Handler = (_req, res) => res.end();
let server: http.Server;
let siteUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const TOKEN = 'tok-7f3a-very-secret';

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the API transport', () => {
  it('sends the token as "Authorization: api <token>" under /api/2.0 with the query', async () => {
    let seen: { url?: string; auth?: string; type?: string; body?: string } = {};
    handler = (req, res, body) => {
      seen = { url: req.url, auth: req.headers.authorization, type: req.headers['content-type'], body };
      res.setHeader('Content-Type', 'application/json');
      res.end('{"answer": 42}');
    };
    const transport = new ApiTransport({ siteUrl, token: TOKEN });
    const value = await transport.request('POST', '/work_log', {
      query: { revisionid: 7, skip: undefined },
      json: { guideid: 1 },
      schema: z.object({ answer: z.number() }),
    });
    expect(value).toEqual({ answer: 42 });
    expect(seen).toEqual({
      url: '/api/2.0/work_log?revisionid=7',
      auth: `api ${TOKEN}`,
      type: 'application/json',
      body: '{"guideid":1}',
    });
  });

  it('sends no Authorization header without a token', async () => {
    let auth: string | undefined = 'unset';
    handler = (req, res) => {
      auth = req.headers.authorization;
      res.end('{}');
    };
    await new ApiTransport({ siteUrl }).request('GET', '/guides');
    expect(auth).toBeUndefined();
  });

  it('turns an error status into an http ApiError with the server message, and never shows the token', async () => {
    handler = (_req, res) => {
      res.statusCode = 409;
      res.end('{"message": "Stale revision", "revisionid": 9}');
    };
    const transport = new ApiTransport({ siteUrl, token: TOKEN });
    const error = await failure(transport.request('PATCH', '/work_log/3'));
    expect(error).toMatchObject({
      kind: 'http',
      status: 409,
      resource: 'PATCH /work_log/3',
      message: 'Stale revision',
    });
    expect(error.body).toEqual({ message: 'Stale revision', revisionid: 9 });
    const failureOut = toAppFailure(error);
    expect(failureOut.code).toBe('conflict');
    const everything = JSON.stringify({ error, failureOut, transport, m: error.message, s: String(transport) });
    expect(everything).not.toContain(TOKEN);
  });

  it('names the resource when a 2xx body is not JSON or has the wrong shape', async () => {
    handler = (_req, res) => res.end('<html>portal login</html>');
    const transport = new ApiTransport({ siteUrl });
    const notJson = await failure(transport.request('GET', '/user'));
    expect(notJson.kind).toBe('bad_response');
    expect(notJson.resource).toBe('GET /user');
    expect(notJson.message).toBe("The site's answer for the signed-in user could not be read (it is not JSON).");

    handler = (_req, res) => res.end('{"userid": "seven"}');
    const wrong = await failure(transport.request('GET', '/user', { schema: z.object({ userid: z.number() }) }));
    expect(wrong.kind).toBe('bad_response');
    expect(wrong.message).toMatch(/^The site's answer for the signed-in user is not in the expected form at userid/);
    expect(toAppFailure(wrong).code).toBe('server_error');
  });

  it('reports a site that does not answer in time as a timeout', async () => {
    handler = () => {}; // never answers
    const transport = new ApiTransport({ siteUrl, timeoutMs: 200 });
    const error = await failure(transport.request('GET', '/user'));
    expect(error.kind).toBe('timeout');
    expect(mayPass(classify(error))).toBe(true);
    expect(toAppFailure(error).code).toBe('offline');
  });

  it('reports a refused connection as a network error in plain words', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(new ApiTransport({ siteUrl: `http://127.0.0.1:${port}` }).request('GET', '/user'));
    expect(error.kind).toBe('network');
    expect(error.message).toBe(
      `Nothing answers at 127.0.0.1:${port}: check the address, or whether the site is running.`,
    );
    expect(error.reason).toBe('refused');
  });

  it('asks a GET again when its connection is reset on the way, a few times at most; never a POST', async () => {
    let asked = 0;
    let resets = 2;
    handler = (req, res) => {
      asked++;
      if (resets > 0) {
        resets--;
        req.socket.resetAndDestroy();
        return;
      }
      res.setHeader('Content-Type', 'application/json');
      res.end('{"guideid": 1}');
    };
    const transport = new ApiTransport({ siteUrl, token: TOKEN });
    expect(await transport.request('GET', '/guides/1')).toEqual({ guideid: 1 });
    expect(asked).toBe(3);

    // Reset every time: the GET gives up after its retries, as a network error.
    asked = 0;
    resets = 100;
    const lost = await failure(transport.request('GET', '/guides/1'));
    expect(lost.kind).toBe('network');
    expect(asked).toBe(3);

    // A POST may have landed: it is never repeated here (the outbox reconciles before it sends again).
    asked = 0;
    resets = 1;
    const posted = await failure(transport.request('POST', '/work_log', { json: { guideid: 1 } }));
    expect(posted.kind).toBe('network');
    expect(asked).toBe(1);
  });

  it('sends nothing once retired (its technician signed out), a read asked again after a reset included', async () => {
    let asked = 0;
    const transport = new ApiTransport({ siteUrl, token: TOKEN });
    handler = (req) => {
      asked++;
      // The technician signs out while this read is out: its reset is not asked again.
      transport.retire();
      req.socket.resetAndDestroy();
    };
    const lost = await failure(transport.request('GET', '/guides/1'));
    expect(lost).toBeInstanceOf(SignedOutHere);
    expect(asked).toBe(1);
    // Not the site's failure: it says nothing of whether the site answers.
    expect(noAnswer(classify(lost))).toBe(false);
    expect(
      noAnswer(classify(await failure(new ApiTransport({ siteUrl: 'http://127.0.0.1:1' }).request('GET', '/')))),
    ).toBe(true);

    // Nor does a write, on its own lane or the front lane.
    for (const lane of [transport, transport.front(), transport.frontWarmth()]) {
      expect(await failure(lane.request('POST', '/work_log', { json: { guideid: 1 } }))).toBeInstanceOf(SignedOutHere);
    }
    // Nor a download or a size asked with the token (a guide being kept when they signed out).
    expect(await failure(transport.download(`${siteUrl}/igi/a.jpg`))).toBeInstanceOf(SignedOutHere);
    expect(await failure(transport.probeSize(`${siteUrl}/igi/a.jpg`))).toBeInstanceOf(SignedOutHere);
    expect(asked).toBe(1);
  });

  it('reads completions on past a short page (paged before the language filter) to an empty one', async () => {
    // iFixit's getCurrentUserCompletions: "offset and limit are applied before language filtering, so a page
    // may contain fewer than limit items while higher offsets still return results". Here the first 200
    // completions hold 150 in this language, the next 200 hold 3, then none.
    const pages = new Map<string, number[]>([
      ['0', Array.from({ length: 150 }, (_, i) => i + 1)],
      ['200', [301, 302, 303]],
    ]);
    const asked: string[] = [];
    handler = (req, res) => {
      const url = new URL(req.url!, siteUrl);
      asked.push(`${url.searchParams.get('offset')}/${url.searchParams.get('limit')}`);
      res.setHeader('Content-Type', 'application/json');
      const ids = pages.get(url.searchParams.get('offset') ?? '') ?? [];
      res.end(JSON.stringify(ids.map((guideid) => ({ dataType: 'guide', guideid }))));
    };
    const marks = await fetchCompletions(new ApiTransport({ siteUrl, token: TOKEN }));
    expect(marks.map((m) => m.guideid)).toEqual([...pages.get('0')!, 301, 302, 303]);
    expect(asked).toEqual(['0/200', '200/200', '400/200', '600/200']);
  });

  it('reads completions on past empty pages while one held here may follow, to ten empty in a row', async () => {
    // Three pages of completions of guides in other languages, then one in this language: guide 900.
    const asked: string[] = [];
    handler = (req, res) => {
      const offset = new URL(req.url!, siteUrl).searchParams.get('offset');
      asked.push(offset ?? '');
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(offset === '600' ? [{ dataType: 'guide', guideid: 900 }] : []));
    };
    const transport = new ApiTransport({ siteUrl, token: TOKEN });
    expect(await fetchCompletions(transport, undefined, [900])).toEqual([{ guideid: 900, at: null, locale: null }]);
    expect(asked).toEqual(['0', '200', '400', '600', '800', '1000']);
    // Not held here: two empty pages in a row end the read.
    asked.length = 0;
    expect(await fetchCompletions(transport)).toEqual([]);
    expect(asked).toEqual(['0', '200']);
    // Held here but no longer done on the site: ten empty pages in a row end it.
    asked.length = 0;
    expect(await fetchCompletions(transport, undefined, [950, 10_000])).toHaveLength(1);
    expect(asked).toHaveLength(14);
  });

  it('classifies each answer once: its kind, whether it may pass, and what was asked', async () => {
    const transport = new ApiTransport({ siteUrl });
    for (const [status, kind, passes] of [
      [401, 'signed-out', false],
      [403, 'forbidden', false],
      [404, 'gone', false],
      [410, 'gone', false],
      [405, 'not-offered', false],
      [501, 'not-offered', false],
      [409, 'conflict', false],
      [422, 'refused', false],
      [429, 'busy', true],
      [420, 'busy', true],
      [503, 'busy', true],
      [500, 'site-error', true],
      [504, 'site-error', true],
    ] as const) {
      handler = (_req, res) => {
        res.statusCode = status;
        res.setHeader('Retry-After', '3');
        res.end('{"message": "x"}');
      };
      const said = classify(await failure(transport.request('GET', '/guides/12')));
      expect(said.kind, String(status)).toBe(kind);
      expect(mayPass(said), String(status)).toBe(passes);
      if (said.kind === 'local') continue;
      expect(said.resource).toEqual({ kind: 'guide', id: 12, part: 'whole' });
      expect(said.request).toBe('GET /guides/12');
      if (said.kind === 'busy' || said.kind === 'site-error') expect(said.retryAfter).toBe(3);
      if (said.kind === 'refused') expect(said.words).toBe('x');
    }
    expect(classify(new Error('a bug')).kind).toBe('local');
  });

  it('downloads a file whose chunks arrive slower than the limit in total but never stall that long', async () => {
    let seen: string | undefined;
    handler = (req, res) => {
      seen = req.headers.authorization;
      res.setHeader('Content-Length', '5');
      let sent = 0;
      const tick = setInterval(() => {
        res.write('x');
        if (++sent === 5) {
          clearInterval(tick);
          res.end();
        }
      }, 80);
    };
    const transport = new ApiTransport({ siteUrl, token: TOKEN, timeoutMs: 200 });
    const { body } = await transport.download(`${siteUrl}/igi/a.standard`);
    let text = '';
    for await (const chunk of body) text += Buffer.from(chunk).toString();
    expect(text).toBe('xxxxx'); // 400 ms in all, gaps of 80 ms: no timeout
    expect(seen).toBe(`api ${TOKEN}`);
  });

  it('fails a download that stalls mid-body as a timeout naming it, and sends no token to another host', async () => {
    let seen: string | undefined = 'unset';
    handler = (req, res) => {
      seen = req.headers.authorization;
      res.setHeader('Content-Length', '10');
      res.write('half!'); // and nothing more
    };
    const elsewhere = siteUrl.replace('127.0.0.1', 'localhost');
    // Another host here is a media origin only once allowed (media-hosts.ts).
    const transport = new ApiTransport({ siteUrl, token: TOKEN, timeoutMs: 1_500, mediaOrigins: () => [elsewhere] });
    const { body } = await transport.download(`${elsewhere}/cdn/b.standard`);
    const chunks: Uint8Array[] = [];
    const error = await failure(
      (async () => {
        for await (const chunk of body) chunks.push(chunk);
      })(),
    );
    expect(error.kind).toBe('timeout');
    expect(error.resource).toBe('GET /cdn/b.standard');
    expect(Buffer.concat(chunks).toString()).toBe('half!');
    expect(seen).toBeUndefined();
  });

  it('cancels a download when the reader stops early or the sync is cancelled', async () => {
    const closed: string[] = [];
    handler = (req, res) => {
      res.setHeader('Content-Length', String(1024 * 1024));
      res.write(Buffer.alloc(64 * 1024));
      res.on('close', () => closed.push(req.url ?? ''));
    };
    const transport = new ApiTransport({ siteUrl, timeoutMs: 5_000 });
    const early = await transport.download(`${siteUrl}/early`);
    for await (const chunk of early.body) {
      expect(chunk.length).toBeGreaterThan(0);
      break; // leaving the loop cancels the response
    }
    const controller = new AbortController();
    const cancelled = await transport.download(`${siteUrl}/cancelled`, controller.signal);
    const error = await failure(
      (async () => {
        for await (const chunk of cancelled.body) {
          expect(chunk.length).toBeGreaterThan(0);
          controller.abort();
        }
      })(),
    );
    expect(error.kind).toBe('network');
    expect(error.reason).toBe('cancelled');
    await expect.poll(() => closed.sort()).toEqual(['/cancelled', '/early']);
  });
});
