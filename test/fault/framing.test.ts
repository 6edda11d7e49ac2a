import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rawRequest } from './helpers.ts';
import { failFirst, startFaultProxy, type FaultProxy } from './proxy.ts';

// HTTP framing the reference site doesn't produce on its own (chunked replies, uploads, a site that
// fails mid-body or says nothing), from a small upstream made for the purpose.
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const pattern = (size: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + (i >> 8)) & 0xff));
const BIG = pattern(3 * 1024 * 1024 + 17);

let upstream: http.Server;
let upstreamPort: number;
let uploads: { length: number; sha256: string }[];
let proxy: FaultProxy;

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/chunked') {
        // No Content-Length: Node sends it chunked, in many writes.
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'X-Sha256': sha256(BIG) });
        for (let at = 0; at < BIG.length; at += 50_000) res.write(BIG.subarray(at, at + 50_000));
        res.end();
      } else if (url.pathname === '/echo') {
        uploads.push({ length: body.length, sha256: sha256(body) });
        const json = JSON.stringify({
          length: body.length,
          sha256: sha256(body),
          type: req.headers['content-type'],
          host: req.headers.host,
        });
        res.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': ['a=1', 'b=2'] }).end(json);
      } else if (url.pathname === '/empty') {
        res.writeHead(Number(url.searchParams.get('status') ?? 200)).end();
      } else if (url.pathname === '/die') {
        res.writeHead(200, { 'Content-Length': '1000' });
        res.write(Buffer.alloc(100), () => res.socket?.destroy());
      } else if (url.pathname === '/silent') {
        // Never answers; the proxy's upstream timeout or close() must end it.
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamPort = (upstream.address() as AddressInfo).port;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});
beforeEach(async () => {
  uploads = [];
  proxy = await startFaultProxy({ target: { port: upstreamPort }, maxBodyBytes: 8 * 1024 * 1024 });
});
afterEach(() => proxy.close());

describe('framing', () => {
  it('relays a large chunked reply byte for byte, still chunked', async () => {
    const raw = await rawRequest(proxy.port, '/chunked', `127.0.0.1:${proxy.port}`);
    expect(raw.headers['transfer-encoding']).toBe('chunked');
    expect(raw.headers['content-length']).toBeUndefined();
    expect(raw.body.equals(BIG)).toBe(true);
    const viaFetch = Buffer.from(await (await fetch(`${proxy.url}/chunked`)).arrayBuffer());
    expect(sha256(viaFetch)).toBe(sha256(BIG));
  });

  it('forwards an octet-stream upload whole, keeping Content-Type, Host and repeated headers', async () => {
    const response = await fetch(`${proxy.url}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: BIG,
    });
    expect(await response.json()).toEqual({
      length: BIG.length,
      sha256: sha256(BIG),
      type: 'application/octet-stream',
      host: `127.0.0.1:${proxy.port}`,
    });
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  });

  it('forwards a chunked (streamed) request body', async () => {
    const parts = [pattern(1000), pattern(70_000), pattern(3)];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
    const response = await fetch(`${proxy.url}/echo`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(((await response.json()) as { sha256: string }).sha256).toBe(sha256(Buffer.concat(parts)));
  });

  it('refuses a request body over maxBodyBytes with a 413', async () => {
    const response = await fetch(`${proxy.url}/echo`, { method: 'POST', body: pattern(9 * 1024 * 1024) });
    expect(response.status).toBe(413);
    expect(uploads).toEqual([]);
  });
});

describe('faults on other framings', () => {
  it('cutBody on a chunked reply: the body read fails', async () => {
    proxy.setSchedule(failFirst(1, { kind: 'cutBody', fraction: 0.3 }));
    const response = await fetch(`${proxy.url}/chunked`);
    await expect(response.arrayBuffer()).rejects.toThrow();
  });

  it('cutBody on an empty body still fails; with no body possible it becomes a reset', async () => {
    proxy.setSchedule(failFirst(2, { kind: 'cutBody' }));
    const empty = await fetch(`${proxy.url}/empty`);
    await expect(empty.text()).rejects.toThrow();
    await expect(fetch(`${proxy.url}/empty?status=204`)).rejects.toThrow();
    await proxy.settled();
    expect(proxy.log.map((entry) => entry.outcome)).toEqual(['cut', 'reset']);
  });

  it('dropResponse after an upload: the site got all of it', async () => {
    proxy.setSchedule(failFirst(1, { kind: 'dropResponse' }));
    await expect(fetch(`${proxy.url}/echo`, { method: 'POST', body: BIG })).rejects.toThrow();
    expect(uploads).toEqual([{ length: BIG.length, sha256: sha256(BIG) }]);
  });

  it('delay before the reply keeps a chunked body whole', async () => {
    proxy.setSchedule(failFirst(1, { kind: 'delay', ms: 50, beforeReply: true }));
    const body = Buffer.from(await (await fetch(`${proxy.url}/chunked`)).arrayBuffer());
    expect(sha256(body)).toBe(sha256(BIG));
    expect(proxy.log[0]!.durationMs).toBeGreaterThanOrEqual(49);
  });
});

describe('a failing site', () => {
  it('a site that dies mid-body: the client sees a failed body, not a short success', async () => {
    const response = await fetch(`${proxy.url}/die`);
    await expect(response.arrayBuffer()).rejects.toThrow();
    await proxy.settled();
    expect(proxy.log[0]).toMatchObject({ upstreamStatus: 200, outcome: 'upstreamError' });
  });

  it('a silent site: a 502 once upstreamTimeoutMs passes', async () => {
    const impatient = await startFaultProxy({ target: { port: upstreamPort }, upstreamTimeoutMs: 300 });
    try {
      const response = await fetch(`${impatient.url}/silent`);
      expect(response.status).toBe(502);
      expect(((await response.json()) as { message: string }).message).toMatch(/silent/);
    } finally {
      await impatient.close();
    }
  });

  it('no site at all: a 502 with a JSON message', async () => {
    const orphan = await startFaultProxy({ target: { port: await closedPort() } });
    try {
      const response = await fetch(`${orphan.url}/anything`);
      expect(response.status).toBe(502);
      expect(((await response.json()) as { message: string }).message).toMatch(/ECONNREFUSED/);
    } finally {
      await orphan.close();
    }
  });
});

describe('close()', () => {
  it('resolves with requests in flight, and they all fail', async () => {
    const patient = await startFaultProxy({ target: { port: upstreamPort }, upstreamTimeoutMs: 60_000 });
    patient.setSchedule(({ seq }) =>
      seq === 1 ? { kind: 'stall', ms: 60_000 } : seq === 2 ? { kind: 'delay', ms: 60_000 } : { kind: 'pass' },
    );
    const pending = ['/echo', '/echo', '/silent'].map((path) => fetch(patient.url + path).then((r) => r.text()));
    const settled = Promise.allSettled(pending);
    await expect.poll(() => patient.stats.inFlight).toBe(3);
    await patient.close();
    expect((await settled).map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(patient.stats.openConnections).toBe(0);
    await expect(fetch(patient.url + '/echo')).rejects.toThrow();
  });
});

async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
