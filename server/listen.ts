import type { Server } from 'node:net';

/**
 * A port that could not be had, said in words a person can act on (no `EADDRINUSE` stack trace).
 * `code` is the system's code (`EADDRINUSE`, `EACCES`, `EADDRNOTAVAIL`).
 */
export class PortUnavailableError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly port: number,
  ) {
    super(message);
    this.name = 'PortUnavailableError';
  }
}

export interface ListenOptions {
  /** 0 lets the OS choose a free port. */
  port: number;
  host: string;
  /**
   * When `port` is taken, how many following ports to try (`port + 1`, `port + 2`, ...) before giving
   * up. 0 (the default): a taken port is an error at once.
   */
  nextFree?: number;
}

/**
 * Listens on `port`, or on the first free one of the `nextFree` ports after it. Resolves with the port
 * it got; rejects with a PortUnavailableError for a taken, forbidden or foreign address, and with the
 * original error for anything else.
 */
export async function listenOn(server: Server, options: ListenOptions): Promise<number> {
  const { port: first, host } = options;
  const tries = first === 0 ? 0 : Math.max(0, Math.min(options.nextFree ?? 0, 65_535 - first));
  for (let port = first; ; port++) {
    try {
      await listenOnce(server, port, host);
      return (server.address() as { port: number }).port;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code === 'EADDRINUSE' && port < first + tries) continue;
      throw explain(error, code, host, first, port);
    }
  }
}

function listenOnce(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => {
      server.off('listening', listening);
      reject(error);
    };
    const listening = () => {
      server.off('error', failed);
      resolve();
    };
    server.once('error', failed);
    server.once('listening', listening);
    server.listen(port, host);
  });
}

function explain(error: unknown, code: string, host: string, first: number, last: number): unknown {
  const where = host.includes(':') ? `[${host}]` : host;
  switch (code) {
    case 'EADDRINUSE':
      return new PortUnavailableError(
        first === last
          ? `Port ${first} on ${where} is already in use by another program.`
          : `Ports ${first} to ${last} on ${where} are all in use by other programs.`,
        code,
        first,
      );
    case 'EACCES':
      return new PortUnavailableError(
        `Port ${last} on ${where} needs administrator rights: choose a port above 1023.`,
        code,
        last,
      );
    case 'EADDRNOTAVAIL':
      return new PortUnavailableError(
        `${host} is not an address of this computer, so nothing can listen on it.`,
        code,
        last,
      );
    default:
      return error;
  }
}
