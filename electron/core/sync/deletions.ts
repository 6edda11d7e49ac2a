import { classify } from '../api/failure.ts';
import { GUIDEIDS_PER_REQUEST, guideExists, listedAmong } from '../api/guides-api.ts';
import type { SyncContext } from './context.ts';

/**
 * Asks the site for the guides we know, GUIDEIDS_PER_REQUEST ids a call (a real site uses only the first
 * 50 of `guideids` and drops the rest without a word): those it no longer lists are gone. Only the
 * guides the syncing technician may read are asked about: the site does not list a private guide to them.
 * What a batch left out is never removed without the site's own 404 for it (confirmedGone). A site that
 * leaves out guides it still has (it caps `guideids` lower) is asked again, in smaller batches, down to one
 * id: only then is its answer not trusted.
 * An answer that cannot be trusted (guides not asked about, or left-out guides that still open) removes
 * nothing and is told as the sync's problem.
 */
export async function removeDeleted(ctx: SyncContext): Promise<number> {
  let deleted = 0;
  let after = 0;
  let checked = 0;
  let batch = GUIDEIDS_PER_REQUEST;
  const total = ctx.store.guides.count().total;
  for (;;) {
    const ids = ctx.store.guides.knownIds(after, batch, ctx.reader);
    if (ids.length === 0) break;
    const present = await listedAmong(ctx.transport, ids, { includePrivate: ctx.includePrivate, signal: ctx.signal });
    const gone = ids.filter((id) => !present.has(id));
    // A site that ignores the `guideids` filter answers some page of its list: what it left out is not gone.
    const asked = new Set(ids);
    let untrusted: string | null = [...present].some((id) => !asked.has(id))
      ? 'sent other guides than the ones asked about'
      : null;
    if (!untrusted && gone.length > 0 && !(await confirmedGone(ctx, gone))) {
      if (ids.length > 1) {
        // Left out guides it still has: a site that uses fewer ids than sent. Those are asked again, fewer at
        // a time: as many as it answered when that was the first ones asked, else half as many.
        const answered = capped(ids, present);
        batch = answered ?? Math.max(1, Math.floor(ids.length / 2));
        if (answered !== null) {
          checked += answered;
          after = ids[answered - 1]!;
        }
        continue;
      }
      untrusted = 'left out guides it still has';
    }
    if (untrusted) {
      ctx.problem({
        message:
          `Asked which of our guides it still has, the site's guide list ${untrusted}, ` +
          `so no guide was removed from this computer as deleted.`,
        resource: 'GET /guides',
        at: ctx.now(),
      });
      return deleted;
    }
    // A guide kept whole that needed one of them first is stored again: the site's answer no longer holds
    // its steps (the guide's own revision does not move, so the plan did not queue it).
    ctx.store.replaceable(() => {
      for (const needs of ctx.store.prerequisites.neededBy(gone)) {
        if (!gone.includes(needs.guideid)) ctx.store.syncQueue.enqueue(needs.guideid, needs.revisionid);
      }
      for (const id of gone) ctx.store.guides.deleteGuide(id);
    });
    deleted += gone.length;
    checked += ids.length;
    after = ids[ids.length - 1]!;
    ctx.progress('deletions', checked, total);
  }
  return deleted;
}

/**
 * How many ids the site used, when its answer is exactly the first ones asked and nothing after them
 * (a site that caps `guideids` below what was sent); null for any other answer.
 */
function capped(ids: readonly number[], present: ReadonlySet<number>): number | null {
  const answered = ids.findIndex((id) => !present.has(id));
  if (answered <= 0 || ids.slice(answered).some((id) => present.has(id))) return null;
  return answered;
}

/**
 * What the list left out is really gone: each of them answers on its own that it is not there for this
 * technician (404, or 403/410: deleted, or made private since). The first that still opens ends the
 * check: a list that answers nothing, or the wrong guides, would otherwise empty the library. Deletions
 * are few, so the cost is one request per guide deleted on the site.
 */
async function confirmedGone(ctx: SyncContext, gone: readonly number[]): Promise<boolean> {
  for (const id of gone) {
    try {
      if (await guideExists(ctx.transport, id, ctx.signal)) return false;
    } catch (error) {
      // Gone (404, 410) is answered by guideExists; made private since, it is forbidden to this technician.
      if (classify(error).kind !== 'forbidden') throw error;
    }
  }
  return true;
}
