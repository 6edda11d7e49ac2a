import { z } from 'zod';

/** Work-log entry (public-shapes.md, DESIGN.md §7). A server without `revisionid` is tolerated. */
export const workDatumWire = z
  .object({
    field_revisionid: z.number().int(),
    field_guid: z.string().nullish(),
    stepid: z.number().int().nullish(),
    label: z.string().nullish(),
    value: z
      .union([z.string(), z.number(), z.boolean(), z.null()])
      .transform((v) => (v === null ? '' : typeof v === 'boolean' ? (v ? '1' : '0') : String(v))),
  })
  .loose();

export const workLogEntryWire = z
  .object({
    entryid: z.number().int(),
    guideid: z.number().int(),
    userid: z.number().int(),
    workorderid: z.union([z.string(), z.number()]).transform(String),
    starttime: z.number(),
    endtime: z.number().nullish(),
    status: z.enum(['started', 'paused', 'suspended', 'complete', 'cancelled']),
    revisionid: z.number().int().nullish(),
    active_stepid: z.number().int().nullish(),
    pause_duration: z.number().nullish(),
    /** The reference server's: when the running pause or suspension began. */
    paused_at: z.number().nullish(),
    guide_revisionid: z.number().int().nullish(),
    work_data: z.array(workDatumWire).nullish(),
  })
  .loose();
export type WorkLogEntryWire = z.infer<typeof workLogEntryWire>;

/**
 * What a transition answers: the entry, or, from a Dozuki site finishing one (the Zapier app's sample),
 * only `{endtime, max_form_revisionid, guide_revisionid}`.
 */
export const transitionAnswerWire = z.union([
  workLogEntryWire,
  z
    .object({
      endtime: z.number().nullish(),
      guide_revisionid: z.number().int().nullish(),
      max_form_revisionid: z.number().int().nullish(),
    })
    .loose(),
]);

/** A list whose entries are read one by one (work-log-api.ts `readableEntries`): each may be of any shape. */
export const workLogEntriesWire = z.object({ results: z.array(z.unknown()) }).loose();

/** The body of a 422 for a transition the entry's state does not allow (DESIGN.md §7). */
export const invalidTransitionWire = z
  .object({
    errors: z.array(z.object({ code: z.string().nullish() }).loose()).nullish(),
    entry: workLogEntryWire,
  })
  .loose()
  .refine((body) => body.errors?.some((e) => e.code === 'invalid_transition') ?? false);
