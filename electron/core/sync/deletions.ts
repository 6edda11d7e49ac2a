import { ApiError } from '../api/errors.ts';
import { guideExists, listedAmong, PAGE_SIZE } from '../api/guides-api.ts';
import type { SyncContext } from './context.ts';

/**
 * Asks the site for the guides we know, 200 ids a call: those it no longer lists are gone. Only the guides
 * the syncing technician may read are asked about: the site does not list a private guide to a technician.
 * An answer that cannot be trusted (guides not asked about, or left-out guides that still open) removes
 * nothing and is told as the sync's problem.
 */
export async function removeDeleted(ctx: SyncContext): Promise<number> {
  let deleted = 0;
  let after = 0;
  let checked = 0;
  const total = ctx.store.guides.count().total;
  for (;;) {
    const ids = ctx.store.guides.knownIds(after, PAGE_SIZE, ctx.reader);
    if (ids.length === 0) break;
    const present = await listedAmong(ctx.transport, ids, { includePrivate: ctx.includePrivate, signal: ctx.signal });
    const gone = ids.filter((id) => !present.has(id));
    // A site that ignores the `guideids` filter answers some page of its list: what it left out is not gone.
    const asked = new Set(ids);
    const untrusted = [...present].some((id) => !asked.has(id))
      ? 'sent other guides than the ones asked about'
      : gone.length > 0 && !(await confirmedGone(ctx, gone))
        ? 'left out guides it still has'
        : null;
    if (untrusted) {
      ctx.problem({
        message: `Asked which of our guides it still has, the site's guide list ${untrusted}, so no guide was removed from this computer as deleted.`,
        resource: 'GET /guides',
        at: ctx.now(),
      });
      return deleted;
    }
    for (const id of gone) ctx.store.guides.deleteGuide(id);
    deleted += gone.length;
    checked += ids.length;
    after = ids[ids.length - 1]!;
    ctx.progress('deletions', checked, total);
  }
  return deleted;
}

/**
 * What the list left out is really gone: the first, middle and last of them each answer on their own that
 * they are not there for this technician (404, or 403/410: deleted, or made private since). A list that
 * answers nothing, or the wrong guides, would otherwise empty the library.
 */
async function confirmedGone(ctx: SyncContext, gone: readonly number[]): Promise<boolean> {
  for (const id of new Set([gone[0]!, gone[Math.floor(gone.length / 2)]!, gone[gone.length - 1]!])) {
    try {
      if (await guideExists(ctx.transport, id, ctx.signal)) return false;
    } catch (error) {
      if (!(error instanceof ApiError && error.kind === 'http' && (error.status === 403 || error.status === 410))) throw error;
    }
  }
  return true;
}
