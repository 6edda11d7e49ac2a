import type { SearchQuery, SearchResults } from '../../contract.ts';
import { notOffered, type ModuleVia } from '../api/capabilities-api.ts';
import { appFailureOf } from '../api/app-failure.ts';
import { classify, noAnswer } from '../api/failure.ts';
import { searchSite, suggestSite, type SiteSearchItem } from '../api/search-api.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { GuideReader } from '../db/repos/guide-row.ts';
import type { Store } from '../db/store.ts';
import { AppFailure } from '../result.ts';

/** What the library needs to know of the site's search module. */
export interface SiteSearchModule {
  offers(): boolean;
  via(): ModuleVia | null;
  answeredAt(via: 'search' | 'suggest'): void;
  lacks(status: number): void;
}

type SiteSearchAnswer = { total: number; items: SiteSearchItem[] };

/** Calm words for local results shown where the site's were asked. */
const SEARCH_NOTES = {
  missing: 'This site has no search of its own: these are the guides on this computer.',
  away: "The site's search did not answer: these are the guides on this computer.",
  failed: (message: string) => `The site's search failed (${message}): these are the guides on this computer.`,
};

/** What the search works with. */
export interface SearchDeps {
  store: Store;
  /** The signed-in transport; throws `unauthorized` when nobody is signed in. */
  transport: () => ApiTransport;
  online: () => boolean;
  reader: () => GuideReader | null;
  onNetworkError: () => void;
  /** The language the technician reads in when it is not the site's own (languages.ts). */
  reading: () => string | null;
  /** The site's search, learned like a module (sync/site-modules.ts). */
  search?: SiteSearchModule;
}

/** Search over the library: this computer's index, and the site's own search while it answers. */
export class LibrarySearch {
  constructor(private readonly deps: SearchDeps) {}

  /**
   * Search: the local index (FTS5, in the technician's language first) for `local`, offline, and
   * whenever the site's search cannot answer; the site's own search for `site`, and for `auto` while
   * online. The site's search never stands in the way of the local one: a site without one (learned like
   * a module), one that fails or does not answer gives the local results with a calm `note` (`auto`);
   * only `site` asked alone fails.
   */
  async search(query: SearchQuery): Promise<SearchResults> {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const where = query.where ?? 'auto';
    const local = (note: string | null = null): SearchResults => ({
      source: 'local',
      ...this.deps.store.search.search(query.text, limit, offset, this.deps.reader(), this.deps.reading()),
      ...(note ? { note } : {}),
    });
    if (where === 'local' || (where === 'auto' && !this.deps.online())) return local();
    try {
      const site = await this.#siteSearch(query.text, limit, offset);
      if (site === null) {
        if (where === 'site') throw new AppFailure('not_found', SEARCH_NOTES.missing);
        return local(SEARCH_NOTES.missing);
      }
      return {
        source: 'site',
        total: site.total,
        // The site answers for the technician's own token: it lists what they may read.
        items: site.items.map((item) => {
          const kept = this.deps.store.guides.getListItem(item.guideid);
          if (!kept) return item;
          const { category, type, flags, offline, thumbnailStored } = kept;
          return { ...item, category, type, flags, image: item.image ?? kept.image, offline, thumbnailStored };
        }),
      };
    } catch (error) {
      const failure = classify(error);
      if (failure.kind === 'local') throw error;
      if (where === 'site') throw appFailureOf(failure);
      if (noAnswer(failure)) {
        this.deps.onNetworkError();
        return local(SEARCH_NOTES.away);
      }
      return local(SEARCH_NOTES.failed(failure.message));
    }
  }

  /**
   * The site's own search, at the endpoint it answered before (`/search` or `/suggest`), else at the
   * other; null when it has neither (then learned as missing, like a module the site lacks).
   */
  async #siteSearch(text: string, limit: number, offset: number): Promise<SiteSearchAnswer | null> {
    const module = this.deps.search;
    if (module && !module.offers()) return null;
    const transport = this.deps.transport();
    const ask = {
      search: () => searchSite(transport, text, limit, offset),
      suggest: async () => {
        // One page of ten at most: suggestions take no offset.
        const found = await suggestSite(transport, text, { langid: this.deps.reading() });
        return { total: found.total, items: found.items.slice(offset, offset + limit) };
      },
    };
    const order: ('search' | 'suggest')[] = module?.via() === 'suggest' ? ['suggest', 'search'] : ['search', 'suggest'];
    let status = 404;
    for (const endpoint of order) {
      try {
        const found = await ask[endpoint]();
        module?.answeredAt(endpoint);
        return found;
      } catch (error) {
        const lacks = notOffered(error);
        if (!lacks) throw error;
        status = lacks.status ?? 404;
      }
    }
    module?.lacks(status);
    return null;
  }
}
