import { z } from 'zod';
import type { MarksApi } from '../../contract.ts';
import { id } from '../method-inputs.ts';
import { defineMethods } from '../methods.ts';
import type { MarksService } from './marks-service.ts';

/** The App API of favourites, completions and "My guides". */
export const marksMethods = defineMethods<keyof MarksApi, MarksService>({
  getGuideMarks: { input: z.tuple([id]), technician: true, run: (marks, guideid) => marks.of(guideid) },
  setGuideMark: {
    input: z.tuple([id, z.enum(['favorite', 'completed']), z.boolean()]),
    work: true,
    technician: true,
    run: (marks, guideid, mark, on) => marks.set(guideid, mark, on),
  },
  listFavoriteGuideIds: { input: z.tuple([]), technician: true, run: (marks) => marks.favoriteIds() },
  noteGuideOpened: { input: z.tuple([id]), run: (marks, guideid) => marks.opened(guideid) },
  getMyGuides: { input: z.tuple([]), technician: true, run: (marks) => marks.mine() },
});
