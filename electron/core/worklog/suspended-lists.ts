import { z } from 'zod';
import { classify } from '../api/failure.ts';
import type { ApiTransport } from '../api/transport.ts';
import { suspendedEntries, suspendedForTaker, type ReadableEntries } from '../api/work-log-api.ts';
import type { Store } from '../db/store.ts';
import { runBounded } from '../sync/pool.ts';

/** The site (by address) whose work-log list was seen to ignore `status`: asked guide by guide from then on. */
const BY_GUIDE_KEY = 'worklog.suspendedByGuide';
const byGuideSchema = z.object({ siteUrl: z.string() });
/** The most guides asked one by one for what was handed over on them, at once and in all. */
export const GUIDES_ASKED = 50;
// As many as a browser asks of one site at once.
const ASKED_AT_ONCE = 6;

/** Entries handed over across guides, and how the site let them be found. */
export interface SuspendedAcross extends ReadableEntries {
  /**
   * Null: the site listed them across guides in one answer. Else it knows no `status` filter: `asked` guides were
   * asked one by one, of `known` this computer had reason to ask.
   */
  byGuide: { asked: number; known: number } | null;
}

/**
 * The entries handed over on the site that the technician may take. One request across guides
 * (`GET /work_log?status=suspended`) where the site honours the filter. No public shape names it
 * (api/public-shapes.md): a site that ignores it answers the caller's own newest entries, of every status, and
 * the colleagues' handed-over sessions were missing from the taker's list without a word. Seen once (an entry
 * listed that is not suspended, or the filter refused), this computer asks that site guide by guide, the public way
 * (`GET /work_log/{guideid}/suspended`), for the guides `candidates` names, newest need first, at most
 * GUIDES_ASKED. A guide the site no longer has or shows them is passed over; any other failure is the caller's.
 */
export async function suspendedAcross(
  store: Store,
  transport: ApiTransport,
  candidates: (listed: ReadableEntries | null) => number[],
  signal?: AbortSignal,
): Promise<SuspendedAcross> {
  let listed: ReadableEntries | null = null;
  if (store.settings.get(BY_GUIDE_KEY, byGuideSchema)?.siteUrl !== transport.siteUrl) {
    listed = await suspendedForTaker(transport, signal).catch((error: unknown) => {
      // A site that refuses the filter outright (a 400 or 422 naming it, say) lists them per guide too.
      const failure = classify(error);
      if (failure.kind === 'refused' && failure.invalid) return null;
      throw error;
    });
    if (listed?.entries.every((entry) => entry.status === 'suspended')) return { ...listed, byGuide: null };
    store.settings.set(BY_GUIDE_KEY, { siteUrl: transport.siteUrl });
  }
  const known = [...new Set(candidates(listed))];
  const asked = known.slice(0, GUIDES_ASKED);
  const found = new Map<number, ReadableEntries['entries'][number]>();
  const unreadable: unknown[] = [];
  await runBounded(
    asked,
    ASKED_AT_ONCE,
    async (guideid) => {
      try {
        const onGuide = await suspendedEntries(transport, guideid, signal);
        for (const entry of onGuide.entries) if (entry.status === 'suspended') found.set(entry.entryid, entry);
        unreadable.push(...onGuide.unreadable);
      } catch (error) {
        const failure = classify(error);
        if (failure.kind !== 'gone' && failure.kind !== 'forbidden') throw error;
      }
    },
    signal,
  );
  signal?.throwIfAborted();
  // Newest first, as the list across guides answers.
  const entries = [...found.values()].sort((a, b) => b.startedAt - a.startedAt || b.entryid - a.entryid);
  return { entries, unreadable, byGuide: { asked: asked.length, known: known.length } };
}
