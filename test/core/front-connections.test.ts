import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, request, type Dispatcher } from 'undici';
import { FrontConnections } from '../../electron/core/api/front-connections.ts';

// Issue 29: the front lane's connections (api/front-connections.ts), over real sockets to a local server
// that names the connection each request came on. Its warm questions are asked one at a time
// (sync/front-lane.ts), so they must go round every connection in turn (each kept open), and what the
// technician asks must find a free one meanwhile. A Pool gives every request the first free connection.

interface Server {
  url: string;
  /** The connection (numbered from 1) each request came on, in the order they came. */
  seen: { path: string; connection: number }[];
  connections: () => number;
  /** Answers the requests to /slow held so far, and those to come. */
  release: () => void;
  close: () => Promise<void>;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function startServer(): Promise<Server> {
  const seen: Server['seen'] = [];
  const numbers = new WeakMap<object, number>();
  let count = 0;
  let released = false;
  const held: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', connection: numbers.get(req.socket)! });
    const answer = (): void => void res.end('{}');
    if (req.url === '/slow' && !released) held.push(answer);
    else answer();
  });
  server.on('connection', (socket) => numbers.set(socket, ++count));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const started: Server = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    connections: () => count,
    release: () => {
      released = true;
      for (const answer of held.splice(0)) answer();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  servers.push(started);
  return started;
}

async function ask(server: Server, dispatcher: Dispatcher, path: string): Promise<void> {
  const answer = await request(`${server.url}${path}`, { dispatcher });
  await answer.body.text();
}

/** The lane's connections opened at once, then a warm question at a time: the connections each came on. */
async function warmOneAtATime(server: Server, asked: Dispatcher, warmth: Dispatcher): Promise<number[]> {
  await Promise.all([1, 2, 3].map(() => ask(server, warmth, '/open')));
  expect(server.connections()).toBe(3);
  // The technician asked once since (on one connection): the warm questions go to the others first.
  await ask(server, asked, '/guide');
  for (let i = 0; i < 3; i++) await ask(server, warmth, '/warm');
  return server.seen.filter((seen) => seen.path === '/warm').map((seen) => seen.connection);
}

describe("the front lane's connections", () => {
  it('give warm questions asked one at a time to each connection in turn, the longest unused first', async () => {
    const server = await startServer();
    const lane = new FrontConnections(3);
    try {
      const warmed = await warmOneAtATime(server, lane.asked, lane.warmth);
      const guide = server.seen.find((seen) => seen.path === '/guide')!.connection;
      expect(new Set(warmed).size, `warmed on ${warmed.join(', ')}`).toBe(3);
      // The one the technician used just before is warm already: it comes last.
      expect(warmed.at(-1)).toBe(guide);
      expect(server.connections()).toBe(3);
    } finally {
      await lane.close();
    }
  });

  it('a pool, as before, does not warm each connection in turn: one it skips goes idle', async () => {
    const server = await startServer();
    const pool = new Agent({ connections: 3 });
    try {
      const warmed = await warmOneAtATime(server, pool, pool);
      expect(new Set(warmed).size, `warmed on ${warmed.join(', ')}`).toBeLessThan(3);
    } finally {
      await pool.close();
    }
  });

  it('gives what the technician asks free open connections while a warm question is out, none new', async () => {
    const server = await startServer();
    const lane = new FrontConnections(3);
    try {
      await Promise.all([1, 2, 3].map(() => ask(server, lane.warmth, '/open')));
      // A warm question the site is slow to answer (held until released).
      const warm = ask(server, lane.warmth, '/slow');
      await expect.poll(() => server.seen.some((seen) => seen.path === '/slow')).toBe(true);
      const slowOn = server.seen.find((seen) => seen.path === '/slow')!.connection;
      // The guide's requests are answered while it is still out: they did not wait behind it.
      await Promise.all([ask(server, lane.asked, '/guide'), ask(server, lane.asked, '/forms')]);
      const guideOn = server.seen.filter((seen) => seen.path !== '/open' && seen.path !== '/slow');
      expect(guideOn.map((seen) => seen.connection)).not.toContain(slowOn);
      expect(server.connections()).toBe(3);
      server.release();
      await warm;
      expect(lane.idleFor(new URL(server.url).origin)).not.toBeNull();
    } finally {
      server.release();
      await lane.close();
    }
  });
});
