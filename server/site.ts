import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createApp, API_PREFIX } from './app.ts';
import { seedDemoContent } from './demo/seed.ts';
import { createContext } from './context.ts';
import { listenOn } from './listen.ts';
import { openServerDb, seedOnce } from './db/open.ts';
import type { Db } from './db/types.ts';
import { seedDemoPeople } from './users/seed.ts';

export interface SiteOptions {
  /** 0 (the default) lets the OS choose a free port. */
  port?: number;
  /** When `port` is taken, how many following ports to try (default 0: a taken port is an error). */
  nextFreePort?: number;
  /** Default 127.0.0.1: the reference server is for this machine unless asked otherwise. */
  host?: string;
  /** Default ':memory:'. */
  dbFile?: string;
  /** Label only: `startDemoSite` passes the demo seed. */
  demo?: boolean;
  testHooks?: boolean;
  /**
   * Fills a new database; skipped when the file was seeded before, so a persisted site keeps its state.
   * It runs outside any transaction: wrap what must be atomic, batch what is big.
   */
  seed?: (db: Db) => void;
}

export interface RunningSite {
  /** The site address (`http://127.0.0.1:PORT`), what a technician types; the API is at `apiUrl`. */
  url: string;
  apiUrl: string;
  port: number;
  db: Db;
  close(): Promise<void>;
}

export async function startSite(options: SiteOptions = {}): Promise<RunningSite> {
  const host = options.host ?? '127.0.0.1';
  const dbFile = options.dbFile ?? ':memory:';
  const db = openServerDb(dbFile);
  let server: Server | undefined;
  try {
    if (options.seed) seedOnce(db, dbFile, options.demo ? 'demo' : 'custom', options.seed);
    const ctx = createContext(db, { testHooks: options.testHooks ?? false });
    const app = createApp(ctx);
    server = createAdaptorServer({ fetch: app.fetch }) as Server;
    await listenOn(server, { port: options.port ?? 0, host, nextFree: options.nextFreePort ?? 0 });
  } catch (error) {
    server?.close();
    db.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const running = server;
  let closing: Promise<void> | undefined;
  return {
    url,
    apiUrl: url + API_PREFIX,
    port,
    db,
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        running.close((error) => {
          db.close();
          if (error) reject(error);
          else resolve();
        });
        // Keep-alive sockets would hold close() open until they time out.
        running.closeAllConnections();
      })),
  };
}

/** The demo workshop: its people, then its content. A persisted `dbFile` with data is opened as it is. */
export async function startDemoSite(
  options: Pick<SiteOptions, 'dbFile' | 'port' | 'nextFreePort' | 'host' | 'testHooks'> & {
    /** The demo's media files (resources/demo); a packaged app passes its own copy. */
    assetDir?: string;
  } = {},
): Promise<RunningSite> {
  const { assetDir, ...site } = options;
  return startSite({
    ...site,
    demo: true,
    seed: (db) =>
      db.transaction(() => {
        seedDemoPeople(db);
        seedDemoContent(db, assetDir ? { assetDir } : {});
      })(),
  });
}
