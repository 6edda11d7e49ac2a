import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEMO_ACCOUNTS } from './demo-accounts.ts';
import { startDemoSite, type RunningSite } from './site.ts';

/** The demo accounts' password of a data folder, beside the demo site's database. */
export const DEMO_PASSWORD_FILE = 'demo-password';

/**
 * The built-in demo workshop as the app's shells start it: the reference server with the demo data,
 * persisted in the app's data folder (work done in the demo survives a restart), on a loopback port,
 * signed in as a technician. The port is kept from one start to the next when it is free, because the
 * site's media URLs name it and the offline library stores them. `assetDir` is where the demo's media
 * files are (default: resources/demo of this checkout; a packaged app passes the copy it ships).
 *
 * Any web page the technician visits can reach a loopback port, so this site answers no CORS, refuses
 * pages of other sites and any Host but its own loopback names at its own port, and its accounts do not
 * use the documented `fieldguide`: they share a password made once per data folder (`demoPassword`),
 * which the app signs in with (`account`).
 */
export async function startDemoWorkshop(
  dataDir: string,
  // uncheckedBecause: a test whose browser sends what no client sends (server/testing/request-check.ts).
  options: { assetDir?: string; uncheckedBecause?: string } = {},
): Promise<{
  url: string;
  account: { email: string; password: string };
  close(): Promise<void>;
}> {
  const dbFile = path.join(dataDir, 'demo-site.sqlite');
  const portFile = path.join(dataDir, 'demo-site.port');
  const password = demoPassword(dataDir);
  // Created private before SQLite opens it: its -wal and -shm files take the database's mode.
  fs.closeSync(fs.openSync(dbFile, 'a', 0o600));
  fs.chmodSync(dbFile, 0o600);
  const previous = Number.parseInt(readOr(portFile, ''), 10);
  const site = { ...options, dbFile, demoPassword: password, ownPortOnly: true };
  let running: RunningSite;
  try {
    running = await startDemoSite({ ...site, port: Number.isInteger(previous) && previous > 0 ? previous : 0 });
  } catch {
    running = await startDemoSite({ ...site, port: 0 });
  }
  fs.writeFileSync(portFile, String(running.port));
  return { url: running.url, account: { email: DEMO_ACCOUNTS.tech1.email, password }, close: () => running.close() };
}

/**
 * The demo accounts' password for this data folder: made the first time (16 letters and digits, 80 bits,
 * in four groups a person can copy), then read from `demo-password`, a file only its owner may read.
 */
export function demoPassword(dataDir: string): string {
  const file = path.join(dataDir, DEMO_PASSWORD_FILE);
  const kept = readOr(file, '').trim();
  if (kept) {
    fs.chmodSync(file, 0o600);
    return kept;
  }
  const made = makePassword();
  // Written whole, then renamed: a crash never leaves half a password for the next start to read.
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${made}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
  return made;
}

// 32 symbols (no 0/o, 1/l): each is 5 bits, and randomInt draws without bias.
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

function makePassword(): string {
  const groups: string[] = [];
  for (let group = 0; group < 4; group++) {
    let text = '';
    for (let i = 0; i < 4; i++) text += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(text);
  }
  return groups.join('-');
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}
