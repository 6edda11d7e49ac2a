import { z } from 'zod';

/** Image object (reference 2.2): an id and URL variants, not every variant always present. */
export const imageWire = z
  .object({
    id: z.number().int(),
    guid: z.string().optional(),
    mini: z.string().optional(),
    thumbnail: z.string().optional(),
    standard: z.string().optional(),
    medium: z.string().optional(),
    large: z.string().optional(),
    original: z.string().optional(),
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
