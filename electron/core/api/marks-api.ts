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
/** Empty pages in a row that end the completions when nothing held here may follow; never more than the most. */
const EMPTY_PAGES_TO_END = 2;
const MOST_EMPTY_PAGES = 10;

/** The signed-in user's favourites (`GET /user/favorites/guides`: one answer, no paging). */
export async function fetchFavorites(transport: ApiTransport, signal?: AbortSignal): Promise<SiteMark[]> {
  return transport.request('GET', '/user/favorites/guides', {
    schema: favoriteListWire,
    ...(signal ? { signal } : {}),
  });
}

/**
 * The signed-in user's completions, by `guideid` ascending, paged before iFixit filters them by language
 * (its OpenAPI description): a short page, or an empty one (200 guides in other languages), is not the end,
 * and nothing in the answer says where the end is. Stopping at the first empty page lost the completions
 * of every later page, and the sync took their "done" marks off this computer. So the read ends at two
 * empty pages in a row, or later while a completion `held` here and not listed yet has a higher `guideid`
 * than any listed (a later page may list it), and at most after ten empty pages in a row.
 */
export async function fetchCompletions(
  transport: ApiTransport,
  signal?: AbortSignal,
  held: readonly number[] = [],
): Promise<SiteMark[]> {
  const marks: SiteMark[] = [];
  const listed = new Set<number>();
  let highest = 0;
  let empty = 0;
  // A site that ignores `offset` answers its first page again: stopped there, not after 500 requests.
  const guard = new PagingGuard('GET /user/completions', 'completed guides');
  for (let page = 0; page < MAX_COMPLETION_PAGES; page++) {
    const list = await transport.request('GET', '/user/completions', {
      query: { offset: page * PAGE_SIZE, limit: PAGE_SIZE },
      schema: completionListWire,
      ...(signal ? { signal } : {}),
    });
    if (list.length === 0) {
      empty += 1;
      const mayFollow = held.some((guideid) => guideid > highest && !listed.has(guideid));
      if (empty >= MOST_EMPTY_PAGES || (empty >= EMPTY_PAGES_TO_END && !mayFollow)) break;
      continue;
    }
    empty = 0;
    guard.next(
      page * PAGE_SIZE,
      list.map((guide) => guide.guideid),
    );
    for (const guide of list) {
      marks.push({ guideid: guide.guideid, at: null, locale: guide.locale ?? null });
      listed.add(guide.guideid);
      highest = Math.max(highest, guide.guideid);
    }
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
