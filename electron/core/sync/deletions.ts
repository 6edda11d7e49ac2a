import { listedAmong, PAGE_SIZE } from '../api/guides-api.ts';
import type { SyncContext } from './context.ts';

/**
 * Asks the site for the guides we know, 200 ids a call: those it no longer lists are gone. Only the guides
 * the syncing technician may read are asked about: the site does not list a private guide to a technician.
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
    for (const id of gone) ctx.store.guides.deleteGuide(id);
    deleted += gone.length;
    checked += ids.length;
    after = ids[ids.length - 1]!;
    ctx.progress('deletions', checked, total);
  }
  return deleted;
}
