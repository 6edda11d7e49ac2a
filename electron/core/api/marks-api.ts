import { PagingGuard } from './paging.ts';
import type { ApiTransport } from './transport.ts';
import { PAGE_SIZE } from './guides-api.ts';
import { completionListWire, favoriteListWire } from './wire/marks.ts';

// A technician's favourites and completions on the site (iFixit's OpenAPI 2.0): the lists the sync reads and
// the marks the outbox sends. PUT and DELETE answer 204 and may be repeated: a send that may have landed is
// simply sent again.

/** A guide the site lists as marked, and when it was marked when the site says (unix seconds). */
export interface SiteMark {
  guideid: number;
  at: number | null;
  /** The language the site lists it in, when it says: on iFixit, the site's own for every guide listed. */
  locale?: string | null;
}

/** Bounds the completions read in one sync. */
const MAX_COMPLETION_PAGES = 500;

/** The signed-in user's favourites (`GET /user/favorites/guides`: one answer, no paging). */
export async function fetchFavorites(transport: ApiTransport, signal?: AbortSignal): Promise<SiteMark[]> {
  return transport.request('GET', '/user/favorites/guides', {
    schema: favoriteListWire,
    ...(signal ? { signal } : {}),
  });
}

/**
 * The signed-in user's completions, pages of 200 until an empty one. iFixit's description warns that it
 * pages before it filters by language, so a short page is not the end: stopping there lost the completions
 * of every later page, and the sync took their "done" marks off this laptop. One request more a sync.
 */
export async function fetchCompletions(transport: ApiTransport, signal?: AbortSignal): Promise<SiteMark[]> {
  const marks: SiteMark[] = [];
  // A site that ignores `offset` answers its first page again: stopped there, not after 500 requests.
  const guard = new PagingGuard('GET /user/completions', 'completed guides');
  for (let page = 0; page < MAX_COMPLETION_PAGES; page++) {
    const list = await transport.request('GET', '/user/completions', {
      query: { offset: page * PAGE_SIZE, limit: PAGE_SIZE },
      schema: completionListWire,
      ...(signal ? { signal } : {}),
    });
    if (list.length === 0) break;
    guard.next(
      page * PAGE_SIZE,
      list.map((guide) => guide.guideid),
    );
    for (const guide of list) marks.push({ guideid: guide.guideid, at: null, locale: guide.locale ?? null });
  }
  return marks;
}

/** Favourites a guide (`true`) or takes it out of the favourites. */
export async function sendFavorite(transport: ApiTransport, guideid: number, on: boolean): Promise<void> {
  await transport.request(on ? 'PUT' : 'DELETE', `/user/favorites/guides/${guideid}`);
}

/** Marks a guide completed (`true`) or takes the completion back. */
export async function sendCompleted(transport: ApiTransport, guideid: number, on: boolean): Promise<void> {
  await transport.request(on ? 'PUT' : 'DELETE', `/guides/${guideid}/completed`);
}
