import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkQueue, startLink } from './link.ts';

// The link emulator of the benchmarks (issue 17): its queue's arithmetic on a clock of its own, and over
// real sockets that it carries every byte intact both ways and resets the connections it is told to.
describe('the link queue', () => {
  it('serves one chunk after another at the rate, each then waiting the one-way delay', () => {
    const queue = new LinkQueue(1, 10); // 1 byte per ms, 10 ms one way
    expect(queue.schedule(1000, 0)).toBe(1010);
    expect(queue.schedule(1000, 0)).toBe(2010); // queued behind the first
    expect(queue.schedule(500, 5000)).toBe(5510); // an idle link starts at once
  });

  it('with no rate limit only delays', () => {
    const queue = new LinkQueue(0, 25);
    expect(queue.schedule(1e9, 100)).toBe(125);
  });
});

describe('the link over real sockets', () => {
  const body = Buffer.alloc(2 * 1024 * 1024);
  for (let i = 0; i < body.length; i++) body[i] = (i * 7919) % 251;
  const digest = createHash('sha256').update(body).digest('hex');
  let server: http.Server;
  let port = 0;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const sent = Buffer.concat(chunks);
        res.writeHead(200, {
          'Content-Type': 'application/octet-stream',
          'Content-Length': String(body.length),
          'X-Upload-Sha256': createHash('sha256').update(sent).digest('hex'),
        });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('carries every byte intact both ways and counts them', async () => {
    const link = await startLink({ targetPort: port, rttMs: 20, mbitPerSec: 200 });
    try {
      const upload = body.subarray(0, 300 * 1024);
      const response = await fetch(`${link.url}/x`, { method: 'POST', body: upload });
      const received = Buffer.from(await response.arrayBuffer());
      expect(createHash('sha256').update(received).digest('hex')).toBe(digest);
      expect(response.headers.get('x-upload-sha256')).toBe(createHash('sha256').update(upload).digest('hex'));
      expect(link.stats.bytesDown).toBeGreaterThan(body.length);
      expect(link.stats.bytesUp).toBeGreaterThan(upload.length);
      expect(link.stats.connections).toBe(1);
    } finally {
      await link.close();
    }
  });

  it('resets the connections it is told to, partway through the answer', async () => {
    const link = await startLink({ targetPort: port, rttMs: 2, mbitPerSec: 0, resetRate: 1, seed: 3 });
    try {
      for (let i = 0; i < 3; i++) {
        const outcome = await fetch(`${link.url}/x`)
          .then(async (response) => Buffer.from(await response.arrayBuffer()).length)
          .catch((error: Error) => error);
        expect(outcome).toBeInstanceOf(Error);
      }
      expect(link.stats.resets).toBe(link.stats.connections);
      expect(link.stats.resets).toBeGreaterThanOrEqual(3);
    } finally {
      await link.close();
    }
  });
});
