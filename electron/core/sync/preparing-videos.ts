import { z } from 'zod';
import type { GuideDetail } from '../../contract.ts';
import type { Store } from '../db/store.ts';

/**
 * Guides stored while the site was still preparing one of their videos (iFixit's `meta.state`
 * "processing", no encodings yet). The site lists the guide at the same revision once the video is ready,
 * so the sync would never fetch it again: each is queued again at a later sync, at most every
 * PREPARING_RETRY_SECONDS and PREPARING_TRIES times for its revision (a new revision starts afresh).
 */
const KEY = 'sync.videosPreparing';
export const PREPARING_RETRY_SECONDS = 15 * 60;
export const PREPARING_TRIES = 12;

const entriesSchema = z.record(z.string(), z.object({ revisionid: z.number(), tries: z.number(), at: z.number() }));
type Entries = z.infer<typeof entriesSchema>;

const read = (store: Store): Entries => store.settings.get(KEY, entriesSchema) ?? {};

export const hasPreparingVideo = (detail: GuideDetail): boolean =>
  detail.steps.some((step) => step.media.type === 'video' && step.media.preparing === true);

/** Notes the guides just stored (in the caller's transaction): which still wait for a video, since when. */
export function notePreparing(store: Store, details: readonly GuideDetail[], now: number): void {
  const entries = read(store);
  let changed = false;
  for (const detail of details) {
    const key = String(detail.guideid);
    const known = entries[key];
    if (hasPreparingVideo(detail)) {
      const tries = known?.revisionid === detail.revisionid ? known.tries + 1 : 0;
      entries[key] = { revisionid: detail.revisionid, tries, at: now };
      changed = true;
    } else if (known) {
      delete entries[key];
      changed = true;
    }
  }
  if (changed) store.settings.set(KEY, entries);
}

/** Queues again the stored guides whose video the site was preparing, when their wait is over. */
export function queuePreparing(store: Store, now: number): void {
  const entries = read(store);
  let dropped = false;
  for (const [key, entry] of Object.entries(entries)) {
    const guideid = Number(key);
    const stored = store.guides.getDetail(guideid)?.revisionid;
    // Dropped from this computer: nothing to wait for. Listed at another revision: queued as changed, and
    // its next store says whether it still waits.
    if (stored === undefined) {
      delete entries[key];
      dropped = true;
    }
    if (stored !== entry.revisionid || store.guides.listedRevision(guideid) !== entry.revisionid) continue;
    if (entry.tries >= PREPARING_TRIES || now - entry.at < PREPARING_RETRY_SECONDS) continue;
    store.syncQueue.enqueue(guideid, entry.revisionid);
  }
  if (dropped) store.settings.set(KEY, entries);
}
