import type { StepValue } from '../../electron/contract.ts';
import { sameValue } from '../lib/step-form.ts';

/** One draft: what a technician typed into one field of one step of one session, not yet saved. */
export interface Draft {
  id: string;
  sessionId: string;
  stepid: number;
  fieldGuid: string;
  value: string;
  updatedAt: number;
}

/** One key per session + step + field; JSON keeps the parts apart whatever characters they hold. */
export const draftKey = (sessionId: string, stepid: number, fieldGuid: string): string => JSON.stringify([sessionId, stepid, fieldGuid]);

export function makeDraft(sessionId: string, stepid: number, fieldGuid: string, value: string, now = Date.now()): Draft {
  return { id: draftKey(sessionId, stepid, fieldGuid), sessionId, stepid, fieldGuid, value, updatedAt: now };
}

/** Drafts that hold something the session does not: what a reload or a crash would otherwise have lost. */
export function unsavedDrafts(drafts: readonly Draft[], values: readonly StepValue[]): Draft[] {
  const saved = new Map(values.map((v) => [`${v.stepid}|${v.fieldGuid}`, v.value]));
  return drafts.filter((d) => {
    const key = `${d.stepid}|${d.fieldGuid}`;
    return saved.has(key) ? !sameValue(saved.get(key), d.value) : d.value !== '';
  });
}

/** Drafts a confirmed save made obsolete: those whose value is what was sent (typing since then is kept; numbers are sent trimmed). */
export function settledBy(drafts: readonly Draft[], stepid: number, sent: readonly { fieldGuid: string; value: string | null }[]): string[] {
  const sentValues = new Map(sent.map((s) => [s.fieldGuid, s.value]));
  return drafts
    .filter((d) => d.stepid === stepid && sentValues.has(d.fieldGuid) && [d.value, d.value.trim()].some((v) => sameValue(sentValues.get(d.fieldGuid), v)))
    .map((d) => d.id);
}
