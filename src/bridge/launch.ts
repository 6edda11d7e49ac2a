import { LAUNCH_HEADER, LAUNCH_PARAM, LAUNCH_ROUTE, LAUNCH_STORAGE_KEY } from '../../electron/contract.ts';

/** What the web shell's page holds of its launch (contract.ts): the secret and the read key. */
export interface Launch {
  secret: string;
  readKey: string;
}

let current: Launch | null = null;

/** The launch this page's origin keeps, if any. */
export function launch(): Launch | null {
  if (current) return current;
  try {
    const kept = JSON.parse(localStorage.getItem(LAUNCH_STORAGE_KEY) ?? 'null') as Partial<Launch> | null;
    if (typeof kept?.secret === 'string' && typeof kept.readKey === 'string') {
      current = { secret: kept.secret, readKey: kept.readKey };
    }
  } catch {
    // Nothing kept, or not ours: the App API answers 401 and the page says to open the printed address.
  }
  return current;
}

/**
 * Takes the secret of the printed address (`?launch=`) into this origin's own storage, which no other port
 * of this computer can read, once the shell confirms it: a page of another site may send the tab here
 * with a wrong one, which must not replace the right one. It leaves the address bar and the history entry
 * at once; the path is kept as a path (`//host/` would name another site).
 */
export async function adoptLaunch(): Promise<void> {
  const url = new URL(location.href);
  const given = url.searchParams.get(LAUNCH_PARAM);
  if (given === null) return;
  url.searchParams.delete(LAUNCH_PARAM);
  history.replaceState(history.state, '', `${url.pathname.replace(/^\/+/, '/')}${url.search}${url.hash}`);
  let answer: Response;
  try {
    answer = await fetch(LAUNCH_ROUTE, { method: 'POST', headers: { [LAUNCH_HEADER]: given } });
  } catch {
    return;
  }
  if (!answer.ok) return;
  const { readKey } = (await answer.json()) as { readKey: string };
  current = { secret: given, readKey };
  localStorage.setItem(LAUNCH_STORAGE_KEY, JSON.stringify(current));
}
