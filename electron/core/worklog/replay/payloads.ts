import { z } from 'zod';

// Stored payloads of the work log's actions (each kind checks its own when the outbox reads a row: a row
// that does not parse is reported and set aside as failed, and the rest drains).

export const startPayload = z.object({
  sessionId: z.string().min(1),
  guideid: z.number().int().positive(),
  workorderid: z.string().min(1),
  stepid: z.number().int().positive().optional(),
  /** Earlier times it was sent with, when it may have landed (start.ts triedAgain): the lookup tries them too. */
  triedAt: z.array(z.number()).max(50).optional(),
});

export const transitionPayload = z.object({ sessionId: z.string().min(1) });

export const stepDataPayload = z.object({
  sessionId: z.string().min(1),
  stepid: z.number().int().positive(),
  fields: z
    .array(
      z.object({
        fieldGuid: z.string().min(1),
        fieldRevisionid: z.number().int(),
        value: z.string().nullable(),
        base: z.string().nullable(),
        /** The value is the site's media item id of this attachment, known once it is uploaded. */
        attachmentId: z.string().optional(),
      }),
    )
    .min(1),
});
export type StepDataPayload = z.infer<typeof stepDataPayload>;

export const uploadPayload = z.object({ sessionId: z.string().min(1), attachmentId: z.string().min(1) });

/**
 * Checks for a second copy of a start or an upload sent again after no answer (doubles.ts), from
 * `since` (local ms); a start's by the times it was sent with.
 */
export const doublesPayload = z.discriminatedUnion('of', [
  z.object({
    of: z.literal('start'),
    sessionId: z.string().min(1),
    times: z.array(z.number()).min(1).max(60),
    since: z.number(),
  }),
  z.object({ of: z.literal('upload'), attachmentId: z.string().min(1), since: z.number() }),
]);
