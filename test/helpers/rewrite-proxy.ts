import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Rewrite = (request: { method: string; path: string }) => { status?: number; body: string } | null;

/**
 * Forwards to a local site, except that a request `rewrite` answers for gets that answer instead:
 * a wrong shape or a body that is not JSON, as a broken or hostile server would send.
 */
export async function startRewriteProxy(targetPort: number): Promise<{ url: string; set(rewrite: Rewrite | null): void; close(): Promise<void> }> {
  let rewrite: Rewrite | null = null;
  const server = http.createServer((req, res) => {
    const answer = rewrite?.({ method: req.method ?? 'GET', path: req.url ?? '/' });
    if (answer) {
      req.resume();
      res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json' });
      res.end(answer.body);
      return;
    }
    const upstream = http.request(
      { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set: (next) => {
      rewrite = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
