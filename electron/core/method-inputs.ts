import { z } from 'zod';

// The pieces every feature builds its methods' argument schemas from (core/methods.ts).

/** A text the technician must fill in, trimmed, named in the message when it is empty. */
export const required = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`);

/** An id the site or the database gave. */
export const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
