import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { forward } from './forward.ts';

/** An answer of its own, the request sent on to another path of the site (`forward`), or null to pass it on. */
type Answer = { status?: number; type?: string; body: string } | { forward: string } | null;
export type Rewrite = (request: {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}) => Answer | Promise<Answer>;

/**
 * Forwards to a local site, except that a request `rewrite` answers for gets that answer instead:
 * a wrong shape or a body that is not JSON, as a broken or hostile server would send; or goes to the
 * path `rewrite` gives (a site that ignores a parameter).
 */
export async function startRewriteProxy(
  targetPort: number,
): Promise<{ url: string; set(rewrite: Rewrite | null): void; close(): Promise<void> }> {
  let rewrite: Rewrite | null = null;
  const server = http.createServer(async (req, res) => {
    const answer =
      (await rewrite?.({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers })) ?? null;
    if (answer && !('forward' in answer)) {
      req.resume();
      res.writeHead(answer.status ?? 200, { 'Content-Type': answer.type ?? 'application/json' });
      res.end(answer.body);
      return;
    }
    forward(req, res, targetPort, answer?.forward ?? req.url);
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
