import { expect } from 'vitest';
import { DEMO_ACCOUNTS, type DemoAccountName } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { always, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { signIn, startTestSite, type TestSiteOptions } from '../server/helpers.ts';
import { unwrap } from './library.ts';
import { makeServices } from './services.ts';
import { formGuideOnSite } from './worklog.ts';

/** A computer of the workshop: its own services, behind its own proxy, so it can lose the network alone. */
export interface Client {
  app: ReturnType<typeof makeServices>;
  proxy: FaultProxy;
  offline(): void;
  /** Back online: the outbox drains, nothing left pending, in flight or failed. */
  online(): Promise<void>;
}

/** The demo workshop over real HTTP with a guide whose steps have forms, and the computers working on it. */
export interface FormWorkshop {
  site: RunningSite;
  guideid: number;
  /** A computer signed in as `who`, with the form guide kept offline (`overrides`: its services', a clock). */
  client(who: DemoAccountName, overrides?: Parameters<typeof makeServices>[1]): Promise<Client>;
  /** Every computer's network back (each test starts online). */
  passAll(): void;
  close(): Promise<void>;
}

/** `options`: how the site behaves besides (a real site's ways: server/site.ts SiteOptions). */
export async function formWorkshop(options: TestSiteOptions = {}): Promise<FormWorkshop> {
  const site = await startTestSite({ demo: true, ...options });
  const admin = await signIn(site, 'admin');
  const guideid = await formGuideOnSite(site.apiUrl, admin.token);
  const clients: Client[] = [];
  return {
    site,
    guideid,
    client: async (who, overrides) => {
      const proxy = await startFaultProxy({ target: { port: site.port } });
      const app = makeServices(undefined, overrides);
      const account = DEMO_ACCOUNTS[who];
      unwrap(await app.services.api.signIn({ siteUrl: proxy.url, email: account.email, password: account.password }));
      unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
      expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
      const made: Client = {
        app,
        proxy,
        offline: () => proxy.setSchedule(always({ kind: 'reset' })),
        online: async () => {
          proxy.passAll();
          const summary = unwrap(await app.services.api.flushOutbox());
          expect(summary.pending + summary.inFlight + summary.failed).toBe(0);
        },
      };
      clients.push(made);
      return made;
    },
    passAll: () => {
      for (const c of clients) c.proxy.passAll();
    },
    close: async () => {
      for (const c of clients) {
        await c.app.dispose();
        await c.proxy.close();
      }
      await site.close();
    },
  };
}
