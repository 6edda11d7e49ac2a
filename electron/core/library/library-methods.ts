import type { AppApi } from '../../contract.ts';
import { ok } from '../result.ts';
import type { LibraryService } from './library-service.ts';

/** The App API of the library: what is stored, read and searched. */
export function libraryMethods(library: LibraryService): Pick<AppApi, 'listGuides' | 'getCategories' | 'listTags' | 'getGuide' | 'getGuideSummary' | 'search'> {
  return {
    listGuides: async (query) => ok(library.list(query)),
    getCategories: async () => ok(library.categoryTree()),
    listTags: async () => ok(library.tags()),
    getGuide: async (guideid, revisionid) => ok(await library.guide(guideid, revisionid)),
    getGuideSummary: async (guideid) => ok(library.summary(guideid)),
    search: async (query) => ok(await library.search(query)),
  };
}
