import { z } from 'zod';

// How real API 2.0 sites write what the reference types strictly (test/fixtures/real/README.md): PHP
// sites send `[]` or `""` where an object or a value is missing, numbers as numeric strings, flags as 0/1.

/** `[]` and `""` for a missing object or value read as absent (a `false` is a value: public: false). */
export const orAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => (value === '' || (Array.isArray(value) && value.length === 0) ? null : value),
    schema.nullish(),
  );

/** A whole number, or one written as a string (`"14"`). */
export const wireInt = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number),
]);

/** A number, or one written as a string (`"1512692663"`, `"1.5"`). */
export const wireNumber = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);

/** A flag sent as a boolean, 0/1 or "0"/"1". */
export const wireBool = z.union([
  z.boolean(),
  z.literal(0).transform(() => false),
  z.literal(1).transform(() => true),
  z.enum(['0', '1']).transform((v) => v === '1'),
]);

/** Text, or a number where text is meant (`"time_required": 30`). */
export const wireText = z.union([z.string(), z.number().transform(String)]);
