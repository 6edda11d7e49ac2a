import type { AppApi } from '../../contract.ts';
import { ok } from '../result.ts';
import type { LibraryService } from './library-service.ts';

/** The App API of the library: what is stored, read and searched, in which language, for which screen. */
export function libraryMethods(
  library: LibraryService,
  languageChosen: () => void,
): Pick<
  AppApi,
  | 'listGuides'
  | 'getCategories'
  | 'listTags'
  | 'getGuide'
  | 'getGuideSummary'
  | 'search'
  | 'getLanguages'
  | 'setLanguage'
  | 'setDisplay'
> {
  return {
    getLanguages: async () => ok(library.languages.state()),
    setLanguage: async (langid) => {
      library.languages.choose(langid);
      // The guides kept whole are read again in it by a sync (started now when the site answers).
      languageChosen();
      return ok(library.languages.state());
    },
    setDisplay: async (display) => {
      library.display.set(display);
      return ok(null);
    },
    listGuides: async (query) => ok(library.list(query)),
    getCategories: async () => ok(library.categoryTree()),
    listTags: async () => ok(library.tags()),
    getGuide: async (guideid, revisionid) => ok(await library.guide(guideid, revisionid)),
    getGuideSummary: async (guideid) => ok(library.summary(guideid)),
    search: async (query) => ok(await library.search(query)),
  };
}
