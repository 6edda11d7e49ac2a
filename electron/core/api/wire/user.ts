import { z } from 'zod';
import { orAbsent, wireInt } from './lenient.ts';

/** Image object (reference 2.2): an id and URL variants, not every variant always present (nor `guid`). */
export const imageWire = z
  .object({
    id: wireInt,
    guid: orAbsent(z.string()),
    mini: orAbsent(z.string()),
    thumbnail: orAbsent(z.string()),
    standard: orAbsent(z.string()),
    medium: orAbsent(z.string()),
    large: orAbsent(z.string()),
    original: orAbsent(z.string()),
  })
  .loose();
export type ImageWire = z.infer<typeof imageWire>;

/** User object (reference 2.3). */
export const userWire = z
  .object({
    userid: z.number().int(),
    username: z.string(),
    unique_username: z.string().nullish(),
    image: imageWire.nullish(),
    privileges: z.array(z.string()).optional(),
  })
  .loose();
export type UserWire = z.infer<typeof userWire>;

/** `POST /user/token` answer (public-shapes.md): a token plus the user's profile. */
export const tokenWire = userWire.extend({ authToken: z.string().min(1) });
