import { classify } from '../../api/failure.ts';
import { guideExists } from '../../api/guides-api.ts';
import type { StepDataPayload } from './payloads.ts';
import type { WorklogContext, ReplayOutcome } from './context.ts';

/**
 * The site refused an action of a session whose guide it has since deleted (the session still follows its
 * kept revision). Said in those words, never as a bare 404 or 422. The library may not know yet (the
 * outbox can replay before the sync that learns of the deletion), so while it still lists the guide the
 * site is asked.
 */
export async function guideGone(ctx: WorklogContext, guideid: number, error: unknown): Promise<boolean> {
  const failure = classify(error);
  if (failure.kind !== 'gone' && !(failure.kind === 'refused' && failure.invalid)) return false;
  if (!ctx.guides.getListItem(guideid)) return true;
  return !(await guideExists(ctx.transport, guideid));
}

export function goneMessage(ctx: WorklogContext, sessionId: string): string {
  const title = ctx.sessions.view(sessionId)?.guideTitle ?? 'The guide';
  return `"${title}" was deleted on the site, which no longer takes this; what you entered is kept on this computer.`;
}

/**
 * Step data the site no longer takes: every value is kept in a conflict record that says why (shown in the
 * sync centre), and the action leaves its chain so the session's pause or finish still reaches the site.
 */
export function keepGoneStepData(
  ctx: WorklogContext,
  rowId: number,
  payload: StepDataPayload,
  guideid: number,
  revisionid: number,
): ReplayOutcome {
  const step = ctx.guides.getRevision(guideid, revisionid)?.steps.find((s) => s.stepid === payload.stepid);
  const labels = new Map((step?.form?.fields ?? []).map((f) => [f.fieldGuid, f.label]));
  const message = goneMessage(ctx, payload.sessionId);
  ctx.transaction(() => {
    for (const field of payload.fields) {
      ctx.conflict({
        sessionId: payload.sessionId,
        kind: 'field',
        fieldGuid: field.fieldGuid,
        stepid: payload.stepid,
        label: labels.get(field.fieldGuid) ?? field.fieldGuid,
        mine: field.value,
        theirs: null,
        base: field.base,
        message,
        attachmentId: field.attachmentId ?? null,
      });
    }
    ctx.outbox.remove(rowId);
  });
  return { type: 'done' };
}
