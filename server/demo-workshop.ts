import path from 'node:path';
import { DEMO_ACCOUNTS } from './demo-accounts.ts';
import { startDemoSite } from './site.ts';

/**
 * The built-in demo workshop as the app's shells start it: the reference server with the demo data,
 * persisted in the app's data folder (so work done in the demo survives a restart), on a free loopback
 * port, signed in as a technician.
 */
export async function startDemoWorkshop(dataDir: string): Promise<{
  url: string;
  account: { email: string; password: string };
  close(): Promise<void>;
}> {
  const site = await startDemoSite({ dbFile: path.join(dataDir, 'demo-site.sqlite') });
  const { email, password } = DEMO_ACCOUNTS.tech1;
  return { url: site.url, account: { email, password }, close: () => site.close() };
}
