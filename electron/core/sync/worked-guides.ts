import { z } from 'zod';
import { entriesOfUser } from '../api/work-log-api.ts';
import type { GuideReader } from '../db/repos/guide-row.ts';
import type { Store } from '../db/store.ts';
import type { SyncContext } from './context.ts';

/** The guides the technician worked on, as the site's work log last told it (per site user). */
export const WORKED_GUIDES_KEY = 'sync.workedGuides';
/** The most of them a big site's first scope keeps whole, newest work first. */
export const WORKED_LIMIT = 50;

const workedSchema = z.object({ userid: z.number(), guideids: z.array(z.number()) });

/**
 * While a big site waits for the technician's first choice, the guides they worked on are what they most
 * likely need next: the site's work log is asked for their newest entries (one request), and the guides
 * are kept whole with the stored ones (first-scope.ts). A site without a work log, or one refusing it, is
 * skipped by the caller's rule for optional reads.
 */
export async function pullWorkedGuides(ctx: Pick<SyncContext, 'store' | 'transport' | 'reader' | 'signal'>) {
  const { userid } = ctx.reader;
  // An entry it cannot read is left out: the others still say which guides they worked on.
  const { entries } = await entriesOfUser(ctx.transport, userid, ctx.signal);
  const guideids = [...new Set(entries.map((entry) => entry.guideid))].slice(0, WORKED_LIMIT);
  ctx.store.settings.set(WORKED_GUIDES_KEY, { userid, guideids });
}

/**
 * The guides this reader worked on, newest first: their sessions on this laptop, then their entries in the
 * site's work log (the last the sync read), those the listing holds and they may read, at most WORKED_LIMIT.
 */
export function workedGuides(store: Store, reader: GuideReader | null): number[] {
  if (!reader) return [];
  const fromSite = store.settings.get(WORKED_GUIDES_KEY, workedSchema);
  const site = fromSite?.userid === reader.userid ? fromSite.guideids : [];
  const here = store.sessions.guidesWorkedOn(reader.userid, WORKED_LIMIT);
  return [...new Set([...here, ...site])]
    .filter((guideid) => store.guides.readable(guideid, reader))
    .slice(0, WORKED_LIMIT);
}
