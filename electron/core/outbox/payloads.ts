import { z } from 'zod';
import type { OutboxRow } from '../db/repos/outbox-repo.ts';

// Stored payloads of outbox actions. The runner parses every row it reads: a row that does not parse
// (a corrupt file, a hand edit, a bug) is reported and set aside as failed, and the rest drains.

export const startPayload = z.object({
  sessionId: z.string().min(1),
  guideid: z.number().int().positive(),
  workorderid: z.string().min(1),
  stepid: z.number().int().positive().optional(),
  /** Earlier times it was sent with, when it may have landed (outbox/send-time.ts): the lookup tries them too. */
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

export const quizAttemptPayload = z.object({ attemptId: z.string().min(1) });

/**
 * Checks for a second copy of a start or an upload sent again after no answer (outbox/doubles.ts), from
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

export const PAYLOADS = {
  start: startPayload,
  pause: transitionPayload,
  resume: transitionPayload,
  suspend: transitionPayload,
  assume: transitionPayload,
  finish: transitionPayload,
  cancel: transitionPayload,
  stepData: stepDataPayload,
  upload: uploadPayload,
  quizAttempt: quizAttemptPayload,
  doubles: doublesPayload,
} as const;

export type ActionKind = keyof typeof PAYLOADS;
export const isActionKind = (kind: string): kind is ActionKind => Object.prototype.hasOwnProperty.call(PAYLOADS, kind);

/** A stored action read back: its kind and checked payload, or why it cannot be read. */
export function parseAction(
  row: OutboxRow,
): { ok: true; kind: ActionKind; payload: unknown } | { ok: false; message: string } {
  if (!isActionKind(row.kind)) return { ok: false, message: `unknown action "${row.kind}"` };
  let json: unknown;
  try {
    json = JSON.parse(row.payload);
  } catch {
    return { ok: false, message: `the stored ${row.kind} action is not JSON` };
  }
  const checked = PAYLOADS[row.kind].safeParse(json);
  if (!checked.success)
    return {
      ok: false,
      message: `the stored ${row.kind} action is damaged: ${checked.error.issues[0]?.message ?? 'invalid'}`,
    };
  return { ok: true, kind: row.kind, payload: checked.data };
}
