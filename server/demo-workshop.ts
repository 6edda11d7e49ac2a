import fs from 'node:fs';
import path from 'node:path';
import { DEMO_ACCOUNTS } from './demo-accounts.ts';
import { startDemoSite, type RunningSite } from './site.ts';

/**
 * The built-in demo workshop as the app's shells start it: the reference server with the demo data,
 * persisted in the app's data folder (work done in the demo survives a restart), on a loopback port,
 * signed in as a technician. The port is kept from one start to the next when it is free, because the
 * site's media URLs name it and the offline library stores them. `assetDir` is where the demo's media
 * files are (default: resources/demo of this checkout; a packaged app passes the copy it ships).
 */
export async function startDemoWorkshop(
  dataDir: string,
  options: { assetDir?: string } = {},
): Promise<{
  url: string;
  account: { email: string; password: string };
  close(): Promise<void>;
}> {
  const dbFile = path.join(dataDir, 'demo-site.sqlite');
  const portFile = path.join(dataDir, 'demo-site.port');
  const previous = Number.parseInt(readOr(portFile, ''), 10);
  let site: RunningSite;
  try {
    site = await startDemoSite({ ...options, dbFile, port: Number.isInteger(previous) && previous > 0 ? previous : 0 });
  } catch {
    site = await startDemoSite({ ...options, dbFile, port: 0 });
  }
  fs.writeFileSync(portFile, String(site.port));
  const { email, password } = DEMO_ACCOUNTS.tech1;
  return { url: site.url, account: { email, password }, close: () => site.close() };
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}
