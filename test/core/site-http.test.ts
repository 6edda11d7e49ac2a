import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteHttp, type HttpAnswer } from '../../electron/core/api/http.ts';
import { ApiTransport } from '../../electron/core/api/transport.ts';

// The app's own HTTP client (api/http.ts: undici's request, not fetch) against a real server on
// loopback: what fetch did for the app before (decoding, the head, letting connections go) it must do too.
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let handler: Handler = (_req, res) => res.end();
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const text = async (answer: HttpAnswer): Promise<string> => {
  const chunks: Uint8Array[] = [];
  for await (const chunk of answer.body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
};

const JSON_TEXT = JSON.stringify({
  guides: Array.from({ length: 200 }, (_, i) => ({ guideid: i, title: `Guide ${i}` })),
});

describe("the app's HTTP client", () => {
  it('asks for compressed answers and decodes gzip, deflate, br and a list of codings, as fetch did', async () => {
    const encoded: Record<string, Buffer> = {
      gzip: zlib.gzipSync(JSON_TEXT),
      deflate: zlib.deflateSync(JSON_TEXT),
      br: zlib.brotliCompressSync(JSON_TEXT),
      // Applied in order: gzip first, then br; decoded last first.
      'gzip, br': zlib.brotliCompressSync(zlib.gzipSync(JSON_TEXT)),
    };
    let accepted: string | undefined;
    for (const [coding, bytes] of Object.entries(encoded)) {
      handler = (req, res) => {
        accepted = req.headers['accept-encoding'];
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'Content-Encoding': coding,
          'Content-Length': bytes.length,
        });
        res.end(bytes);
      };
      const answer = await siteHttp(new URL(`${base}/api`), { headers: {} });
      expect(answer.headers.get('Content-Encoding')).toBe(coding);
      expect(await text(answer)).toBe(JSON_TEXT);
      // Read whole (an API answer): decoded in one call, the same text.
      expect((await (await siteHttp(new URL(`${base}/api`), { headers: {} })).bytes(1e6))?.toString()).toBe(JSON_TEXT);
    }
    expect(accepted).toBe('gzip, deflate, br');
  });

  it('keeps what a gzip body cut short decoded to, and leaves a coding it did not ask for as sent', async () => {
    const whole = zlib.gzipSync(JSON_TEXT);
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Encoding': 'gzip' });
      res.end(whole.subarray(0, whole.length - 8));
    };
    expect(await text(await siteHttp(new URL(`${base}/cut`), { headers: {} }))).toBe(JSON_TEXT);
    expect((await (await siteHttp(new URL(`${base}/cut`), { headers: {} })).bytes(1e6))?.toString()).toBe(JSON_TEXT);

    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Encoding': 'compress' });
      res.end('as sent');
    };
    expect(await text(await siteHttp(new URL(`${base}/odd`), { headers: {} }))).toBe('as sent');
    expect((await (await siteHttp(new URL(`${base}/odd`), { headers: {} })).bytes(1e6))?.toString()).toBe('as sent');
  });

  it('reads a whole body no further than its limit, as sent and decoded', async () => {
    const gz = zlib.gzipSync(JSON_TEXT);
    handler = (req, res) => {
      if (req.url === '/plain') res.writeHead(200).end(JSON_TEXT);
      else res.writeHead(200, { 'Content-Encoding': 'gzip' }).end(gz);
    };
    const read = async (path: string, limit: number) =>
      (await siteHttp(new URL(`${base}${path}`), { headers: {} })).bytes(limit);
    expect((await read('/plain', JSON_TEXT.length))?.length).toBe(JSON_TEXT.length);
    expect(await read('/plain', JSON_TEXT.length - 1)).toBeNull();
    // Small as sent, over the limit decoded.
    expect(gz.length).toBeLessThan(1000);
    expect(await read('/gzip', 1000)).toBeNull();
    expect((await read('/gzip', JSON_TEXT.length))?.toString()).toBe(JSON_TEXT);
  });

  it(
    'reads the head by name in any case, ' + 'answers a HEAD and a 204 with no body, and never follows a redirect',
    async () => {
      handler = (req, res) => {
        if (req.url === '/moved') {
          res.writeHead(302, { Location: '/elsewhere', 'Content-Encoding': 'gzip' });
          res.end();
          return;
        }
        if (req.url === '/empty') {
          res.writeHead(204, { 'Content-Encoding': 'gzip' });
          res.end();
          return;
        }
        res.writeHead(200, { 'Content-Length': '1234', 'X-Twice': ['a', 'b'], 'Content-Encoding': 'gzip' });
        res.end();
      };
      const head = await siteHttp(new URL(`${base}/file`), { method: 'HEAD', headers: {} });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe('1234');
      expect(head.headers.get('X-TWICE')).toBe('a, b');
      expect(head.headers.get('missing')).toBeNull();
      expect(await text(head)).toBe('');

      const empty = await siteHttp(new URL(`${base}/empty`), { headers: {} });
      expect([empty.status, empty.ok, await text(empty)]).toEqual([204, true, '']);

      const moved = await siteHttp(new URL(`${base}/moved`), { headers: {} });
      expect([moved.status, moved.ok, moved.headers.get('location')]).toEqual([302, false, '/elsewhere']);
      moved.cancel();
    },
  );

  it('a cancelled body lets its connection go: a stalled answer does not hold a connection for ever', async () => {
    const stalled = new Set<Socket>();
    handler = (req, res) => {
      stalled.add(req.socket);
      req.socket.on('close', () => stalled.delete(req.socket));
      res.writeHead(200, { 'Content-Type': 'image/jpeg' });
      res.write(Buffer.alloc(1024));
      // Never ends.
    };
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => siteHttp(new URL(`${base}/stall/${i}`), { headers: {} })),
    );
    expect(stalled.size).toBe(5);
    for (const answer of answers) answer.cancel();
    await expect.poll(() => stalled.size, { timeout: 5000 }).toBe(0);
  });

  it('a connection reset before the body is read is given to its reader, never thrown at the process', async () => {
    handler = (req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': '100000' });
      res.write(Buffer.alloc(1000), () => setTimeout(() => req.socket.destroy(), 20));
    };
    const answer = await siteHttp(new URL(`${base}/reset`), { headers: {} });
    // The caller is busy elsewhere (the media downloader awaits room for the file) while the reset arrives.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(text(answer)).rejects.toMatchObject({ code: expect.stringMatching(/^UND_ERR_/) });
    // Cancelled without reading (a size probe, a redirect, a body half sent): nothing is thrown either.
    handler = (req, res) => {
      if (req.url === '/moved') res.writeHead(302, { Location: '/there' }).end();
      else if (req.url === '/half') res.writeHead(200).write('x');
      else res.writeHead(200, { 'Content-Length': '5000' }).end();
    };
    (await siteHttp(new URL(`${base}/probe`), { method: 'HEAD', headers: {} })).cancel();
    (await siteHttp(new URL(`${base}/moved`), { headers: {} })).cancel();
    (await siteHttp(new URL(`${base}/half`), { headers: {} })).cancel();
    await new Promise((resolve) => setTimeout(resolve, 100));
  });

  it(
    'under the transport: ' +
      "a body compressed past the JSON cap is stopped there, and a download's body arrives decoded",
    async () => {
      // 40 MB of spaces in a JSON string: about 40 KB compressed, over the 32 MB read for an answer.
      const bomb = zlib.gzipSync(`{"a":"${' '.repeat(40 * 1024 * 1024)}"}`);
      handler = (req, res) => {
        if (req.url?.startsWith('/api/2.0/')) {
          res.writeHead(200, {
            'Content-Type': 'application/json',
            'Content-Encoding': 'gzip',
            'Content-Length': bomb.length,
          });
          res.end(bomb);
          return;
        }
        const svg = zlib.gzipSync('<svg xmlns="http://www.w3.org/2000/svg"/>');
        res.writeHead(200, {
          'Content-Type': 'image/svg+xml',
          'Content-Encoding': 'gzip',
          'Content-Length': svg.length,
        });
        res.end(svg);
      };
      const transport = new ApiTransport({ siteUrl: base });
      await expect(transport.request('GET', '/guides')).rejects.toThrow(/larger than 32 MB and was not read/);
      const { body } = await transport.download(`${base}/media/a.svg`);
      const chunks: Uint8Array[] = [];
      for await (const chunk of body) chunks.push(chunk);
      expect(Buffer.concat(chunks).toString()).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>');
    },
  );
});
