import http from 'node:http';

/** Sends a request on to a local site as it came (or to `path` there), and its answer back as it comes. */
export function forward(req: http.IncomingMessage, res: http.ServerResponse, port: number, path = req.url): void {
  const upstream = http.request(
    { host: '127.0.0.1', port, method: req.method, path, headers: req.headers },
    (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}
