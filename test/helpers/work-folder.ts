import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { signIn, startTestSite } from '../server/helpers.ts';
import { unwrap } from './library.ts';
import { makeServices } from './services.ts';
import { makeTempDir } from './tmp.ts';
import { formGuideOnSite } from './worklog.ts';

/**
 * The demo site behind a fault proxy, its guide with the most step forms, and a data folder signed in as
 * tech1 through the proxy with that guide synced, the app still open: where the tests of the work on
 * the disk start (they queue work in it, or close it and copy the folder).
 */
export async function syncedWorkFolder(name: string): Promise<{
  site: RunningSite;
  proxy: FaultProxy;
  guideid: number;
  folder: ReturnType<typeof makeTempDir>;
  app: ReturnType<typeof makeServices>;
}> {
  const site = await startTestSite({ demo: true });
  const proxy = await startFaultProxy({ target: { port: site.port } });
  const guideid = await formGuideOnSite(site.apiUrl, (await signIn(site, 'admin')).token);
  const folder = makeTempDir(name);
  const app = makeServices(folder.dir);
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await app.services.api.signIn({ siteUrl: proxy.url, email, password }));
  unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
  const synced = unwrap(await app.services.api.syncNow());
  if (synced.status !== 'complete') throw new Error(`the first sync ended ${synced.status}`);
  return { site, proxy, guideid, folder, app };
}
