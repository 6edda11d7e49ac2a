import { listGuidesPage, PAGE_SIZE } from '../api/guides-api.ts';
import type { SyncContext } from './context.ts';
import { PagingGuard } from '../api/paging.ts';

/**
 * Lists guides changed since the cursor, page by page (never the whole site in memory), and stores
 * their summaries: summaries are always synced, whatever the offline scope. Answers how many listed
 * guides were new or changed and the newest modification seen (the cursor candidate), never later than
 * the site's time when it answered the first page: one guide dated in the future by a site's bad data
 * would otherwise move the cursor past every change to come. Everything older was in this listing.
 */
export async function listChanges(
  ctx: SyncContext,
  cursor: number | undefined,
): Promise<{ changed: number; newest: number | undefined }> {
  let changed = 0;
  let newest = cursor;
  // The site's time (its Date header) when it answered the first page; this computer's until it has.
  let listedAt = ctx.now();
  const ask = (offset: number) =>
    listGuidesPage(ctx.transport, {
      ...(cursor !== undefined ? { modifiedSince: cursor } : {}),
      offset,
      includePrivate: ctx.includePrivate,
      signal: ctx.signal,
    });
  // The next page is asked for while this one is stored: the site's work and ours overlap, and no more
  // than two pages are ever held. A next page nobody waits for (this one failed to store) is let go.
  let next = ask(0);
  const guard = new PagingGuard('GET /guides', 'guides');
  for (let offset = 0; ;) {
    const page = await next;
    if (offset === 0) listedAt = ctx.siteNow() ?? listedAt;
    guard.next(
      offset,
      page.map(({ item }) => item.guideid),
    );
    const more = page.length >= PAGE_SIZE;
    // Past what this page held: a site that sends more than the limit asked for is not asked for it twice.
    offset += page.length;
    if (more) {
      next = ask(offset);
      next.catch(() => undefined);
    }
    ctx.store.replaceable(() => {
      for (const { item, revisionid, summary, public: isPublic, authorUserid } of page) {
        if (ctx.store.guides.listedRevision(item.guideid) !== revisionid) changed++;
        ctx.store.guides.upsertSummary({
          guideid: item.guideid,
          revisionid,
          title: item.title,
          category: item.category,
          subject: item.subject,
          type: item.type,
          summary,
          flags: item.flags,
          image: item.image,
          public: isPublic,
          authorUserid,
          modifiedDate: item.modifiedDate,
        });
        newest = Math.max(newest ?? 0, Math.floor(item.modifiedDate));
      }
    });
    ctx.progress('listing', offset, offset);
    if (!more) break;
  }
  return { changed, newest: newest === undefined ? undefined : Math.min(newest, Math.max(listedAt, cursor ?? 0)) };
}
