import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { forward } from './forward.ts';
import type { Clock } from '../../server/context.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';

/**
 * The demo site on two nodes behind one address, as a site behind a load balancer: both nodes serve one
 * database file, each with its own clock, and requests go to them in turn (or to the node a test picks
 * for the next requests). Answers carry the `Date` of the node that made them.
 */
export async function startTwoNodes(options: { dbFile: string; clocks: [Clock, Clock] }): Promise<{
  url: string;
  nodes: [RunningSite, RunningSite];
  /** Sends every request to this node until `alternate()`. */
  pin(node: 0 | 1): void;
  alternate(): void;
  close(): Promise<void>;
}> {
  // The first node seeds the file; the second opens it as it is.
  const first = await startDemoSite({ dbFile: options.dbFile, testHooks: true, clock: options.clocks[0] });
  const second = await startDemoSite({ dbFile: options.dbFile, testHooks: true, clock: options.clocks[1] });
  const nodes: [RunningSite, RunningSite] = [first, second];
  let turn = 0;
  let pinned: 0 | 1 | null = null;
  const server = http.createServer((req, res) => {
    forward(req, res, nodes[pinned ?? turn++ % 2]!.port);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    nodes,
    pin: (node) => {
      pinned = node;
    },
    alternate: () => {
      pinned = null;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(nodes.map((node) => node.close()));
    },
  };
}
