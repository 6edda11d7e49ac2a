import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { siteHttp, type Http } from '../../electron/core/api/http.ts';
import { SiteUnreachableError } from '../../electron/core/api/network-errors.ts';
import { Reachability } from '../../electron/core/connection/reachability.ts';
import { reachabilityHttp } from '../../electron/core/connection/reachability-http.ts';

// The HTTP of the transports in use, over real HTTP to a local server that answers, hangs or is closed:
// reads end when the site is found gone, a change already sent waits for its own answer (what became of
// it stays the outbox's to find out), and a request made while the site is away is not sent unless a
// check is answered (connection/reachability-http.ts).
let server: http.Server;
let base: string;
let hanging: http.ServerResponse[];
let probes: number;
let probeHangs: boolean;
let reach: Reachability;
let watched: Http;

beforeEach(async () => {
  hanging = [];
  probes = 0;
  probeHangs = false;
  server = http.createServer((req, res) => {
    if (req.url === '/api/2.0/user' && probeHangs) hanging.push(res);
    else if (req.url === '/api/2.0/user') {
      probes++;
      res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"message":"Sign in"}');
    } else if (req.url?.startsWith('/hang')) hanging.push(res);
    else res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  reach = new Reachability({
    probe: async (signal) => {
      try {
        await siteHttp(new URL(`${base}/api/2.0/user`), { headers: {}, signal });
        return true;
      } catch {
        return false;
      }
    },
    changed: () => undefined,
  });
  reach.enable(true);
  watched = reachabilityHttp(siteHttp, base, reach);
});
afterEach(async () => {
  reach.close();
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const ask = (path: string, method = 'GET') => watched(new URL(base + path), { method, headers: {} });

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}

describe('requests to the site while it goes away', () => {
  it('a read still waiting ends when the site is found gone; a change already sent waits for its answer', async () => {
    const read = ask('/hang/read');
    const change = ask('/hang/start', 'POST');
    let changeEnded = false;
    void change.then(
      () => (changeEnded = true),
      () => (changeEnded = true),
    );
    await waitFor(() => hanging.length === 2);
    reach.lose();
    await expect(read).rejects.toBeInstanceOf(SiteUnreachableError);
    expect(changeEnded).toBe(false);
    // The site answers the change after all: it is the caller's answer, and the site is heard again.
    const start = hanging.find((res) => res.req.url === '/hang/start')!;
    start.writeHead(201, { 'Content-Type': 'application/json' }).end('{"entryid":1}');
    const answer = await change;
    expect(answer.status).toBe(201);
    expect(reach.reachable).toBe(true);
  });

  it('a read sent while an older check is out is not ended when that check fails', async () => {
    // The network came back while a check was out (stop 47's note): the read sent then gets its answer.
    probeHangs = true;
    const old = reach.check();
    await waitFor(() => hanging.length === 1);
    const read = ask('/hang/read');
    await waitFor(() => hanging.length === 2);
    expect(await old).toBe(false);
    expect(reach.reachable).toBe(false);
    probeHangs = false;
    hanging[1]!.writeHead(200, { 'Content-Type': 'application/json' }).end('{"read":1}');
    expect((await read).status).toBe(200);
    expect(reach.reachable).toBe(true);
  });

  it('a request made while the site is away goes once a check is answered', async () => {
    reach.lose();
    const before = probes;
    expect((await ask('/guides')).status).toBe(200);
    expect(probes).toBeGreaterThan(before);
  });

  it('a request made while the site is away and refusing fails without being sent', async () => {
    reach.lose();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await expect(ask('/guides')).rejects.toBeInstanceOf(SiteUnreachableError);
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  it('a refused connection says the site is away at once', async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await expect(ask('/guides')).rejects.toThrow();
    expect(reach.reachable).toBe(false);
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
});
