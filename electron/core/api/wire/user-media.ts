import { z } from 'zod';

/** `POST /user/media/uploads` answer: the new media item (the reference's names it). */
export const uploadWire = z
  .object({ id: z.number().int(), name: z.string().nullish(), filename: z.string().nullish() })
  .loose();

/** `GET /user/media/current`: the user's media items, as a list or wrapped (sites differ). */
export const currentMediaWire = z.union([
  z.array(z.unknown()),
  z
    .object({ results: z.array(z.unknown()) })
    .loose()
    .transform((o) => o.results),
  z
    .object({ items: z.array(z.unknown()) })
    .loose()
    .transform((o) => o.items),
]);

export const mediaItemWire = z
  .object({
    id: z.number().int().nullish(),
    itemid: z.number().int().nullish(),
    name: z.string().nullish(),
    filename: z.string().nullish(),
    /** `GuideImage`, `GuideVideoObject`, `Document`: the route a DELETE goes to (public-shapes.md). */
    type: z.string().nullish(),
  })
  .loose();
