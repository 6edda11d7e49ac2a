import { z } from 'zod';
import { orAbsent, wireInt, wireNumber } from './lenient.ts';

// Wire shapes of a user's favourites and completions (iFixit's OpenAPI 2.0: getCurrentUserFavoriteGuides,
// getCurrentUserCompletions). Only the guide's id, its language and the date are read: the library has the rest.

const guideRef = z.object({ guideid: wireInt, locale: orAbsent(z.string()) }).loose();
type GuideRef = { guideid: number; locale?: string | null | undefined };

/** A favourite as iFixit lists it (`{date, guide}`), or a bare guide summary as the reference server does. */
const datedFavorite: z.ZodType<{ date?: number | null | undefined; guide: GuideRef }> = z.object({
  date: wireNumber.nullish(),
  guide: guideRef,
});
export const favoriteListWire = z.array(
  z.union([
    datedFavorite.transform((entry) => ({
      guideid: entry.guide.guideid,
      at: entry.date ?? null,
      locale: entry.guide.locale ?? null,
    })),
    guideRef.transform((guide) => ({ guideid: guide.guideid, at: null, locale: guide.locale ?? null })),
  ]),
);

/** Completions are guide summaries; the date of a completion is not given. */
export const completionListWire = z.array(guideRef);
