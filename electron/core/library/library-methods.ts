import { z } from 'zod';
import type { LibraryApi } from '../../contract.ts';
import { LIST_MAX, SEARCH_TEXT_MAX } from '../../shared/limits.ts';
import { id } from '../method-inputs.ts';
import { defineMethods } from '../methods.ts';
import type { LibraryService } from './library-service.ts';

export interface LibraryMethodDeps {
  library: LibraryService;
  /** The technician chose a language: the guides kept whole are read again in it by a sync. */
  languageChosen: () => void;
}

const langid = z.string().regex(/^[a-z]{2}$/, 'a language code of two letters');
const pixels = z.number().int().min(1).max(100_000);

/** The App API of the library: what is stored, read and searched, in which language, for which screen. */
export const libraryMethods = defineMethods<keyof LibraryApi, LibraryMethodDeps>({
  listGuides: {
    input: z.tuple([
      z.object({
        category: z.string().max(500).optional(),
        type: z.string().max(50).optional(),
        tag: z.string().max(200).optional(),
        offlineOnly: z.boolean().optional(),
        guideids: z.array(id).max(LIST_MAX).optional(),
        offset: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(LIST_MAX).optional(),
      }),
    ]),
    run: ({ library }, query) => library.list(query),
  },
  getCategories: { input: z.tuple([]), run: ({ library }) => library.categoryTree() },
  listTags: { input: z.tuple([]), run: ({ library }) => library.tags() },
  getGuide: {
    input: z.union([z.tuple([id]), z.tuple([id, id])]),
    run: ({ library }, guideid, revisionid) => library.guide(guideid, revisionid),
  },
  getGuideSummary: { input: z.tuple([id]), run: ({ library }, guideid) => library.summary(guideid) },
  search: {
    input: z.tuple([
      z.object({
        text: z.string().max(SEARCH_TEXT_MAX),
        where: z.enum(['auto', 'local', 'site']).optional(),
        limit: z.number().int().min(1).max(200).optional(),
        offset: z.number().int().min(0).optional(),
      }),
    ]),
    run: ({ library }, query) => library.search(query),
  },
  getLanguages: { input: z.tuple([]), run: ({ library }) => library.languages.state() },
  setLanguage: {
    input: z.tuple([langid.nullable()]),
    run: async ({ library, languageChosen }, langid) => {
      await library.languages.choose(langid);
      languageChosen();
      return library.languages.state();
    },
  },
  setDisplay: {
    input: z.tuple([z.object({ width: pixels, height: pixels })]),
    run: ({ library }, display) => {
      library.display.set(display);
      return null;
    },
  },
});
