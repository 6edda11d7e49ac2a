import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { AppEvent } from '../../electron/contract.ts';
import { createServices, type Services, type ServicesDeps } from '../../electron/core/services.ts';
import { plainCodec } from '../../electron/core/connection/secret-store.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoWorkshop } from '../../server/demo-workshop.ts';
import { startDemoSite, type RunningSite, type SiteOptions } from '../../server/site.ts';
import { PASS, startFaultProxy, type FaultProxy, type FaultProxyOptions, type Schedule } from '../fault/proxy.ts';
import { startTestSite } from '../server/helpers.ts';
import { makeTempDir } from './tmp.ts';

/** Real core services over a temp data folder, with the real demo workshop behind connectDemo. */
export function makeServices(
  dataDir?: string,
  overrides: Partial<ServicesDeps> = {},
): {
  services: Services;
  dataDir: string;
  events: AppEvent[];
  logs: string[];
  dispose: () => Promise<void>;
} {
  const tmp = dataDir ? null : makeTempDir('services');
  const dir = dataDir ?? tmp!.dir;
  const logs: string[] = [];
  const services = createServices({
    dataDir: dir,
    version: '0.0.0-test',
    secretCodec: plainCodec,
    startDemoWorkshop,
    log: (message) => logs.push(message),
    autoSync: false,
    ...overrides,
  });
  const events: AppEvent[] = [];
  services.events.subscribe((event) => events.push(event));
  return {
    services,
    dataDir: dir,
    events,
    logs,
    dispose: async () => {
      await services.close();
      tmp?.remove();
    },
  };
}

/** Signs tech1 in to `siteUrl` and runs a first sync, which must complete: where most tests over a site start. */
export async function signInAndSync(services: Services, siteUrl: string): Promise<void> {
  const signedIn = await services.api.signIn({
    siteUrl,
    email: DEMO_ACCOUNTS.tech1.email,
    password: DEMO_ACCOUNTS.tech1.password,
  });
  if (!signedIn.ok) throw new Error(`sign-in: ${signedIn.error.message}`);
  const synced = await services.api.syncNow();
  if (!synced.ok) throw new Error(`first sync: ${synced.error.message}`);
  if (synced.value.status !== 'complete')
    throw new Error(`first sync ended ${synced.value.status}: ${JSON.stringify(synced.value)}`);
}

/**
 * The demo site behind a fault proxy (`proxy`: its options but the target), and an app signed in through
 * the proxy as tech1 (nothing synced yet).
 */
export async function signedInOverProxy(proxyOptions: Omit<FaultProxyOptions, 'target'> = {}): Promise<{
  site: RunningSite;
  proxy: FaultProxy;
  app: ReturnType<typeof makeServices>;
  close: () => Promise<void>;
}> {
  const site = await startTestSite({ demo: true });
  const proxy = await startFaultProxy({ ...proxyOptions, target: { port: site.port } });
  const app = makeServices();
  const close = async (): Promise<void> => {
    await app.dispose();
    await proxy.close();
    await site.close();
  };
  try {
    const { email, password } = DEMO_ACCOUNTS.tech1;
    const signedIn = await app.services.api.signIn({ siteUrl: proxy.url, email, password });
    if (!signedIn.ok) throw new Error(`sign-in: ${signedIn.error.message}`);
  } catch (error) {
    await close();
    throw error;
  }
  return { site, proxy, app, close };
}

/**
 * The demo site behind a fault proxy, and an app signed in through
 * the proxy and synced: where many outbox and work log tests start.
 */
export async function syncedOverProxy(): Promise<Awaited<ReturnType<typeof signedInOverProxy>>> {
  const over = await signedInOverProxy();
  try {
    const synced = await over.app.services.api.syncNow();
    if (!synced.ok) throw new Error(`first sync: ${synced.error.message}`);
    if (synced.value.status !== 'complete')
      throw new Error(`first sync ended ${synced.value.status}: ${JSON.stringify(synced.value)}`);
  } catch (error) {
    await over.close();
    throw error;
  }
  return over;
}

/**
 * For a test file: the demo site behind a fault proxy with tech1 signed in (and a first sync with `synced`),
 * made before the file's tests and closed after them. Read its parts in the tests, not at the file's top.
 */
export function overProxyForFile(synced: boolean): { site: RunningSite; proxy: FaultProxy; app: TestServices } {
  let over: Awaited<ReturnType<typeof signedInOverProxy>> | undefined;
  beforeAll(async () => {
    over = synced ? await syncedOverProxy() : await signedInOverProxy();
  });
  afterAll(() => over?.close());
  const made = () => {
    if (!over) throw new Error('The site behind its proxy is made before the tests (beforeAll).');
    return over;
  };
  return {
    get site() {
      return made().site;
    },
    get proxy() {
      return made().proxy;
    },
    get app() {
      return made().app;
    },
  };
}

type TestServices = ReturnType<typeof makeServices>;

/**
 * A `startDemoWorkshop` for tests that need the demo site itself: its database (to plant content before
 * a sync) and a way to stop it (to prove the app then works offline). The site runs as the shells run it,
 * persisted in the data folder and signed in as tech1.
 */
export function capturingDemoWorkshop(): {
  startDemoWorkshop: ServicesDeps['startDemoWorkshop'];
  /** The running demo site; throws before connectDemo started it. */
  site(): RunningSite;
  /** Starts the stopped demo site again on the same address and database ("the site is back"). */
  restart(): Promise<RunningSite>;
} {
  let running: RunningSite | null = null;
  let dbFile: string | null = null;
  return {
    startDemoWorkshop: async (dataDir) => {
      dbFile = path.join(dataDir, 'demo-site.sqlite');
      running = await startDemoSite({ dbFile });
      const site = running;
      const { email, password } = DEMO_ACCOUNTS.tech1;
      // The current site: a restarted one is closed with the app too.
      return { url: site.url, account: { email, password }, close: () => (running ?? site).close() };
    },
    site() {
      if (!running) throw new Error('The demo workshop has not been started (connectDemo first)');
      return running;
    },
    async restart() {
      if (!running || !dbFile) throw new Error('The demo workshop has not been started (connectDemo first)');
      running = await startDemoSite({ dbFile, port: running.port });
      return running;
    },
  };
}

/**
 * The demo workshop behind the fault proxy: the app talks to the proxy, so a test can make the site
 * slow, failing or gone (`schedule`) without restarting anything, and read the site's database directly.
 * `siteOptions`: a real site's ways the demo plays besides (server/site.ts).
 */
export function proxiedDemoWorkshop(siteOptions: Pick<SiteOptions, 'noStatusFilter'> = {}): {
  startDemoWorkshop: ServicesDeps['startDemoWorkshop'];
  site(): RunningSite;
  proxy(): FaultProxy;
  /** What the proxy does with the next requests; `null` lets everything through. */
  setSchedule(schedule: Schedule | null): void;
} {
  let site: RunningSite | null = null;
  let proxy: FaultProxy | null = null;
  let schedule: Schedule | null = null;
  return {
    startDemoWorkshop: async (dataDir) => {
      site = await startDemoSite({ dbFile: path.join(dataDir, 'demo-site.sqlite'), ...siteOptions });
      proxy = await startFaultProxy({
        target: { port: site.port },
        schedule: (request) => (schedule ? schedule(request) : PASS),
        maxDelayMs: 60_000,
        maxStallMs: 60_000,
      });
      const { email, password } = DEMO_ACCOUNTS.tech1;
      const [running, front] = [site, proxy];
      return {
        url: front.url,
        account: { email, password },
        close: async () => void (await Promise.all([front.close(), running.close()])),
      };
    },
    site() {
      if (!site) throw new Error('The demo workshop has not been started (connectDemo first)');
      return site;
    },
    proxy() {
      if (!proxy) throw new Error('The demo workshop has not been started (connectDemo first)');
      return proxy;
    },
    setSchedule(next) {
      schedule = next;
    },
  };
}
