import type { StepValue } from '../../electron/contract.ts';
import { sameValue } from '../lib/step-form.ts';

/**
 * Whose drafts: the technician's key (`site|userid`, AppStatus.technician). Drafts kept before technicians
 * were recorded carry EARLIER_DRAFTS until the technician they belonged to opens the window (drafts/owner.ts).
 */
export const EARLIER_DRAFTS = '';
/** Nobody works now (a view left open past a sign-out): what is typed is kept under no technician anyone reads. */
export const NOBODY = 'nobody|0';

/** One draft: what a technician typed into one field of one step of one session, not yet saved. */
export interface Draft {
  id: string;
  technician: string;
  sessionId: string;
  stepid: number;
  fieldGuid: string;
  value: string;
  updatedAt: number;
  /**
   * The saved value the typing began over (null: none); absent in drafts kept before it was recorded. The site's
   * value changing under it (saved on another computer) is said at the field: Save would replace it unseen.
   */
  over?: string | null;
}

/** One key per technician + session + step + field; JSON keeps the parts apart whatever characters they hold. */
export const draftKey = (technician: string, sessionId: string, stepid: number, fieldGuid: string): string =>
  JSON.stringify([technician, sessionId, stepid, fieldGuid]);

export function makeDraft(
  technician: string,
  sessionId: string,
  stepid: number,
  fieldGuid: string,
  value: string,
  now = Date.now(),
  over?: string | null,
): Draft {
  return {
    id: draftKey(technician, sessionId, stepid, fieldGuid),
    technician,
    sessionId,
    stepid,
    fieldGuid,
    value,
    updatedAt: now,
    ...(over !== undefined ? { over } : {}),
  };
}

/** Drafts that hold something the session does not: what a reload or a crash would otherwise have lost. */
export function unsavedDrafts(drafts: readonly Draft[], values: readonly StepValue[]): Draft[] {
  const saved = new Map(values.map((v) => [`${v.stepid}|${v.fieldGuid}`, v.value]));
  return drafts.filter((d) => {
    const key = `${d.stepid}|${d.fieldGuid}`;
    return saved.has(key) ? !sameValue(saved.get(key), d.value) : d.value !== '';
  });
}

/**
 * Drafts a confirmed save made obsolete: those whose value is what
 * was sent (typing since then is kept; numbers are sent trimmed).
 */
export function settledBy(
  drafts: readonly Draft[],
  stepid: number,
  sent: readonly { fieldGuid: string; value: string | null }[],
): string[] {
  const sentValues = new Map(sent.map((s) => [s.fieldGuid, s.value]));
  return drafts
    .filter(
      (d) =>
        d.stepid === stepid &&
        sentValues.has(d.fieldGuid) &&
        [d.value, d.value.trim()].some((v) => sameValue(sentValues.get(d.fieldGuid), v)),
    )
    .map((d) => d.id);
}

/** A draft of the version before technicians (no `technician`): keyed anew as EARLIER_DRAFTS'. */
export function earlierDraft(old: Omit<Draft, 'id' | 'technician'>): Draft {
  return makeDraft(EARLIER_DRAFTS, old.sessionId, old.stepid, old.fieldGuid, old.value, old.updatedAt);
}
