import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { audit, keptAliveClient, nextSocketEvent, rawRequest, startPeopleSite, TECH_SIGN_IN } from './helpers.ts';
import { failFirst, sequence, startFaultProxy, type FaultProxy } from './proxy.ts';
import { MALFORMED_ON_PURPOSE } from '../server/helpers.ts';

// The fault proxy in front of the real reference site, over real HTTP with Node's fetch.
let site: RunningSite;
let proxy: FaultProxy;

beforeAll(async () => {
  site = await startPeopleSite();
});
afterAll(() => site.close());
beforeEach(async () => {
  proxy = await startFaultProxy({ target: { port: site.port } });
});
afterEach(() => proxy.close());

/** Reads the body too: undici only reuses a connection once the body is consumed. */
/** The status of a GET; `?slow`, `?fast` name a request for the proxy's faults, and are no API parameter. */
async function statusOf(url: string): Promise<number> {
  const response = await fetch(url, { headers: new URL(url).search ? MALFORMED_ON_PURPOSE : {} });
  await response.arrayBuffer();
  return response.status;
}

const signIn = (base: string) =>
  fetch(`${base}/api/2.0/user/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: TECH_SIGN_IN,
  });

describe('pass-through', () => {
  it('keeps status, headers and body as the site sent them', async () => {
    const direct = await fetch(`${site.url}/api/2.0/user`);
    const proxied = await fetch(`${proxy.url}/api/2.0/user`);
    expect(proxied.status).toBe(401);
    expect(proxied.headers.get('content-type')).toBe(direct.headers.get('content-type'));
    expect(await proxied.text()).toBe(await direct.text());
    expect(proxy.log).toMatchObject([
      {
        seq: 1,
        method: 'GET',
        path: '/api/2.0/user',
        fault: { kind: 'pass' },
        upstreamStatus: 401,
        outcome: 'replied',
        done: true,
      },
    ]);
  });

  it('relays a long body byte for byte, with its Content-Length, keeping the Host the client used', async () => {
    const path = '/api/2.0/users?limit=200';
    const host = `127.0.0.1:${proxy.port}`;
    // The site builds absolute URLs from Host, so the reference is the site asked with the proxy's Host.
    const direct = await rawRequest(site.port, path, host);
    const proxied = await rawRequest(proxy.port, path, host);
    expect(direct.body.length).toBeGreaterThan(50_000);
    expect(proxied.status).toBe(200);
    expect(proxied.headers['content-length']).toBe(String(direct.body.length));
    expect(proxied.body.equals(direct.body)).toBe(true);
    const viaFetch = Buffer.from(await (await fetch(proxy.url + path)).arrayBuffer());
    expect(viaFetch.equals(direct.body)).toBe(true);
  });

  it('forwards JSON request bodies: a sign-in through the proxy works', async () => {
    const response = await signIn(proxy.url);
    expect(response.status).toBe(201);
    expect(((await response.json()) as { authToken: string }).authToken).toMatch(/\S/);
    expect(proxy.requestsTo(/\/user\/token$/, 'POST')).toHaveLength(1);
  });

  it('serves several requests on one kept-alive client connection', async () => {
    const client = await keptAliveClient(proxy.port);
    for (const path of ['/api/2.0/user', '/api/2.0/users?limit=3', '/api/2.0/user']) {
      expect((await client.get(path)).status).toBe(path.includes('users') ? 200 : 401);
    }
    client.socket.destroy();
    expect(proxy.stats.connections).toBe(1);
    expect(proxy.log.map((entry) => entry.seq)).toEqual([1, 2, 3]);
  });

  it('lets fetch reuse its connections', async () => {
    for (let i = 0; i < 10; i++) expect(await statusOf(`${proxy.url}/api/2.0/user`)).toBe(401);
    // undici may open a second connection before it releases the first; never one per request.
    expect(proxy.stats.connections).toBeLessThanOrEqual(2);
  });
});

describe('faults', () => {
  it('reset: the fetch fails and the site never sees the request', async () => {
    proxy.setSchedule(failFirst(1, { kind: 'reset' }));
    const before = (await audit(site, 'token')).length;
    await expect(signIn(proxy.url)).rejects.toThrow();
    await proxy.settled();
    expect(proxy.log[0]).toMatchObject({ fault: { kind: 'reset' }, forwarded: false, outcome: 'reset' });
    expect(await audit(site, 'token')).toHaveLength(before);
    // The schedule moved on: the next one passes.
    expect(await statusOf(`${proxy.url}/api/2.0/user`)).toBe(401);
    expect(proxy.counts).toMatchObject({ reset: 1, pass: 1 });
  });

  it.each([500, 502, 503, 429])('status %i: answered by the proxy with a JSON message', async (status) => {
    proxy.setSchedule(failFirst(1, { kind: 'status', status, retryAfter: 7 }));
    const response = await signIn(proxy.url);
    expect(response.status).toBe(status);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(((await response.json()) as { message: string }).message).toMatch(/\S/);
    expect(proxy.log[0]).toMatchObject({ forwarded: false, outcome: 'replied' });
    expect(proxy.log[0]!.upstreamStatus).toBeUndefined();
  });

  it("rewrite: the site's gzip answer, decompressed, changed and sent with its own length", async () => {
    const path = '/api/2.0/users?limit=3';
    const asked = await fetch(site.url + path);
    // Node's fetch asks for gzip: the site compresses its JSON for it.
    expect(asked.headers.get('content-encoding')).toBe('gzip');
    const direct = (await asked.json()) as { userid: number }[];
    proxy.setSchedule(failFirst(1, { kind: 'rewrite', body: (text) => text.replace(/^\[/, '[{"odd":true},') }));
    const response = await fetch(proxy.url + path);
    expect(response.headers.has('content-encoding')).toBe(false);
    const text = await response.text();
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    // The site writes its own address into the users' links from Host: the users compared by id.
    const [odd, ...users] = JSON.parse(text) as [unknown, ...{ userid: number }[]];
    expect(odd).toEqual({ odd: true });
    expect(users.map((u) => u.userid)).toEqual(direct.map((u) => u.userid));
    expect(users).toHaveLength(3);
    expect(proxy.log[0]).toMatchObject({ fault: { kind: 'rewrite' }, forwarded: true, outcome: 'replied' });
    expect(proxy.log[0]!.upstreamStatus).toBe(200);
  });

  it('status without retryAfter sends no Retry-After, and the given message', async () => {
    proxy.setSchedule(failFirst(1, { kind: 'status', status: 503, message: 'maintenance' }));
    const response = await fetch(`${proxy.url}/api/2.0/user`);
    expect(response.headers.has('retry-after')).toBe(false);
    expect(await response.json()).toEqual({ message: 'maintenance' });
  });

  it('delay: the delayed request finishes after a later undelayed one, and took at least the delay', async () => {
    proxy.setSchedule(sequence([{ kind: 'delay', ms: 500 }]));
    const order: string[] = [];
    const started = performance.now();
    const slow = statusOf(`${proxy.url}/api/2.0/user?slow`).then((status) => {
      order.push(`slow ${status}`);
      return performance.now() - started;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await statusOf(`${proxy.url}/api/2.0/user?fast`).then((status) => order.push(`fast ${status}`));
    const slowMs = await slow;
    expect(order).toEqual(['fast 401', 'slow 401']);
    expect(slowMs).toBeGreaterThanOrEqual(495);
    expect(proxy.requestsTo(/slow/)[0]).toMatchObject({ fault: { kind: 'delay', ms: 500 }, upstreamStatus: 401 });
    expect(proxy.requestsTo(/slow/)[0]!.durationMs).toBeGreaterThanOrEqual(495);
  });

  it('delay before the reply: the site commits first, the answer comes later', async () => {
    proxy.setSchedule(failFirst(1, { kind: 'delay', ms: 2_000, beforeReply: true }));
    const before = (await audit(site, 'token')).length;
    const pending = signIn(proxy.url);
    await expect
      .poll(() => audit(site, 'token').then((entries) => entries.length), { interval: 20, timeout: 10_000 })
      .toBe(before + 1);
    expect(proxy.log[0]!.done).toBe(false);
    expect((await pending).status).toBe(201);
  });

  it('cutBody: head and part of a long body, then the body read fails', async () => {
    proxy.setSchedule(failFirst(1, { kind: 'cutBody', fraction: 0.5 }));
    const response = await fetch(`${proxy.url}/api/2.0/users?limit=200`);
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow();
    expect(proxy.log[0]).toMatchObject({ upstreamStatus: 200, outcome: 'cut' });
  });

  it('cutBody on a short body fails the read too', async () => {
    proxy.setSchedule(failFirst(1, { kind: 'cutBody', bytes: 3 }));
    const response = await fetch(`${proxy.url}/api/2.0/user`);
    expect(response.status).toBe(401);
    await expect(response.text()).rejects.toThrow();
  });

  it('stall: nothing comes back, and the connection closes at the bound', async () => {
    proxy.setSchedule(failFirst(1, { kind: 'stall', ms: 200 }));
    await expect(fetch(`${proxy.url}/api/2.0/user`)).rejects.toThrow();
    await proxy.settled();
    expect(proxy.log[0]).toMatchObject({ fault: { kind: 'stall', ms: 200 }, forwarded: false, outcome: 'stalled' });
  });

  it('stall: a client timeout ends it early and the proxy lets go', async () => {
    proxy.setSchedule(failFirst(1, { kind: 'stall', ms: 10_000 }));
    await expect(fetch(`${proxy.url}/api/2.0/user`, { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    await proxy.settled();
    expect(proxy.log[0]).toMatchObject({ outcome: 'clientGone', done: true });
  });

  it('dropResponse: the site commits, the client only sees a failure', async () => {
    proxy.setSchedule(failFirst(1, { kind: 'dropResponse' }, { paths: /\/user\/token$/ }));
    const before = (await audit(site, 'token')).length;
    await expect(signIn(proxy.url)).rejects.toThrow();
    await proxy.settled();
    const after = await audit(site, 'token');
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({ method: 'POST', path: '/api/2.0/user/token' });
    expect(proxy.log[0]).toMatchObject({ forwarded: true, upstreamStatus: 201, outcome: 'dropped' });
  });

  it('resetIdle: RSTs an idle kept-alive connection, and the request that carries it passes', async () => {
    const idle = (await keptAliveClient(proxy.port, '/api/2.0/user')).socket;
    const event = nextSocketEvent(idle);
    proxy.setSchedule(failFirst(1, { kind: 'resetIdle' }));
    expect(await statusOf(`${proxy.url}/api/2.0/user`)).toBe(401);
    expect(await event).toBe('ECONNRESET');
    expect(proxy.stats.idleResets).toBe(1);
    expect(proxy.counts.resetIdle).toBe(1);
    expect(proxy.log.at(-1)).toMatchObject({ fault: { kind: 'pass' }, idleResets: 1, outcome: 'replied' });
  });

  it('resetIdle(): resets idle connections on demand; fetch reconnects afterwards', async () => {
    expect(await statusOf(`${proxy.url}/api/2.0/user`)).toBe(401);
    const idle = (await keptAliveClient(proxy.port, '/api/2.0/user')).socket;
    const event = nextSocketEvent(idle);
    expect(proxy.resetIdle()).toBe(2);
    expect(await event).toBe('ECONNRESET');
    await expect.poll(() => proxy.stats.openConnections).toBe(0);
    // The RST reaches fetch's pooled socket at the same moment; give its I/O event a turn, or fetch
    // would reuse the dead socket (which is the point of the fault, but not of this test).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await statusOf(`${proxy.url}/api/2.0/user`)).toBe(401);
    expect(proxy.stats.connections).toBe(3);
  });

  it('a schedule that throws turns into a loud 500', async () => {
    proxy.setSchedule(() => {
      throw new Error('bad schedule');
    });
    const response = await fetch(`${proxy.url}/api/2.0/user`);
    expect(response.status).toBe(500);
    expect(((await response.json()) as { message: string }).message).toContain('bad schedule');
    proxy.passAll();
    expect(await statusOf(`${proxy.url}/api/2.0/user`)).toBe(401);
  });
});
