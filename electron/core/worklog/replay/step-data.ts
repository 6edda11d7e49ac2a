import { classify } from '../../api/failure.ts';
import { currentEntryOf, putStepData, type SiteEntry } from '../../api/work-log-api.ts';
import type { OutboxRow } from '../../db/repos/outbox-repo.ts';
import { isEditable } from '../../../shared/worklog.ts';
import { adoptRevision, theirValues } from './adopt.ts';
import { guideGone, keepGoneStepData } from './guide-gone.ts';
import { followSite, siteTookIt } from './follow-site.ts';
import { mergeStepData } from './merge.ts';
import { stepDataPayload, type StepDataPayload } from './payloads.ts';
import { missingHere, worklogAction, type WorklogHandler, type WorklogContext } from './context.ts';
import { describeStepData, stepDataChangeAt } from './step-words.ts';

type Field = StepDataPayload['fields'][number];

/**
 * Step data (DESIGN.md §6). Before sending, each value moves to the field's current revision by
 * `field_guid` (a revised form), and a field the form no longer has becomes a conflict record (kept,
 * not sent). On a stale revision the values are merged three ways with the site's: what nobody else
 * changed is sent again on the new revision, what is already there is done, and a field both sides
 * changed differently is a conflict the technician settles.
 */
const replayStepData: WorklogHandler<StepDataPayload> = async (ctx, row, payload) => {
  const session = ctx.sessions.state(payload.sessionId);
  if (!session) return missingHere('work session');
  if (session.entryid === null)
    return { type: 'failed', message: 'This session was never created on the site (its start did not go through).' };

  const current = new Map<string, { fieldRevisionid: number; label: string; stepid: number }>();
  for (const form of ctx.guides.formsOfGuide(session.guideid)) {
    for (const field of form.fields)
      current.set(field.fieldGuid, { fieldRevisionid: field.fieldRevisionid, label: field.label, stepid: form.stepid });
  }
  const sendable: Field[] = [];
  const removed: Field[] = [];
  for (const field of payload.fields) {
    const now = current.get(field.fieldGuid);
    if (now) sendable.push({ ...field, fieldRevisionid: now.fieldRevisionid });
    else if (current.size > 0) removed.push(field);
    else sendable.push(field);
  }
  const values: Record<string, string | null> = {};
  for (const field of sendable) {
    if (field.attachmentId) {
      const attachment = ctx.sessions.attachment(field.attachmentId);
      if (!attachment || attachment.serverItemid === null) {
        return {
          type: 'failed',
          message: 'An attached file was never uploaded, so the value that refers to it cannot be saved.',
        };
      }
      values[String(field.fieldRevisionid)] = String(attachment.serverItemid);
    } else {
      values[String(field.fieldRevisionid)] = field.value;
    }
  }

  if (sendable.length > 0) {
    let entry: SiteEntry;
    try {
      entry = await putStepData(ctx.transport, session.entryid, session.serverRevisionid, {
        fields: values,
        stepid: payload.stepid,
        timestamp: row.actedAt,
      });
    } catch (error) {
      const theirs = currentEntryOf(error, session.entryid);
      if (!theirs && (await guideGone(ctx, session.guideid, error)))
        return keepGoneStepData(ctx, row.id, payload, session.guideid, session.guideRevisionid);
      if (!theirs && classify(error).kind === 'refused' && savedAgainSince(ctx, row, payload)) return { type: 'done' };
      if (!theirs) throw error;
      // Taken over, cancelled or finished elsewhere: one record for the session, not one per field.
      if (siteTookIt(theirs, session.userid)) {
        await followSite(ctx, row, session.id, theirs);
        return { type: 'done' };
      }
      return merge(ctx, row.id, payload, sendable, removed, values, theirs);
    }
    ctx.transaction(() => {
      adoptRevision(ctx, session.id, entry);
      const confirmed = theirValues(ctx.guides, session.guideid, entry);
      for (const field of sendable)
        recordServerValue(ctx, session.id, field, confirmed.get(field.fieldGuid) ?? null, payload.stepid);
      keepRemoved(ctx, session.id, payload.stepid, removed);
      ctx.outbox.remove(row.id);
    });
    return { type: 'done' };
  }
  ctx.transaction(() => {
    keepRemoved(ctx, session.id, payload.stepid, removed);
    ctx.outbox.remove(row.id);
  });
  return { type: 'done' };
};

function merge(
  ctx: WorklogContext,
  actionId: number,
  payload: StepDataPayload,
  sendable: Field[],
  removed: Field[],
  sentValues: Record<string, string | null>,
  theirs: SiteEntry,
) {
  const session = ctx.sessions.state(payload.sessionId)!;
  const site = theirValues(ctx.guides, session.guideid, theirs);
  const editable = isEditable(theirs.status);
  const mineOf = (field: Field): string | null => sentValues[String(field.fieldRevisionid)] ?? null;
  const changes = sendable.map((field) => ({ fieldGuid: field.fieldGuid, base: field.base, mine: mineOf(field) }));
  const result = editable
    ? mergeStepData(changes, site)
    : { send: [], alreadyThere: [], conflicts: changes.map((c) => ({ ...c, theirs: site.get(c.fieldGuid) ?? null })) };
  const byGuid = new Map(sendable.map((f) => [f.fieldGuid, f]));
  const labels = new Map(
    ctx.guides.formsOfGuide(session.guideid).flatMap((form) => form.fields.map((f) => [f.fieldGuid, f.label] as const)),
  );
  return ctx.transaction(() => {
    ctx.sessions.update(session.id, { serverRevisionid: theirs.revisionid }, ctx.now());
    for (const done of result.alreadyThere)
      recordServerValue(ctx, session.id, byGuid.get(done.fieldGuid)!, done.mine, payload.stepid);
    for (const conflict of result.conflicts) {
      ctx.conflict({
        sessionId: session.id,
        kind: 'field',
        fieldGuid: conflict.fieldGuid,
        stepid: payload.stepid,
        label: labels.get(conflict.fieldGuid) ?? conflict.fieldGuid,
        mine: conflict.mine,
        theirs: conflict.theirs,
        base: conflict.base,
        message: editable
          ? 'This field was changed here and on the site to different values.'
          : `The session is ${theirs.status} on the site, so this value was not saved there.`,
      });
      // The site's value becomes the base: keeping mine later sends it against what the site has now.
      ctx.sessions.setServerValue(session.id, conflict.fieldGuid, conflict.theirs, false, {
        fieldRevisionid: byGuid.get(conflict.fieldGuid)!.fieldRevisionid,
        stepid: payload.stepid,
      });
    }
    keepRemoved(ctx, session.id, payload.stepid, removed);
    if (result.send.length === 0) {
      ctx.outbox.remove(actionId);
      return { type: 'done' } as const;
    }
    const still = result.send.map((c) => byGuid.get(c.fieldGuid)!);
    const actedAt = ctx.outbox.get(actionId)!.actedAt;
    ctx.outbox.replacePayload(actionId, stepDataAction, { ...payload, fields: still }, actedAt);
    return theirs.revisionid !== null
      ? ({ type: 'again' } as const)
      : ({ type: 'failed', message: 'The site refused the save and sent no revision to retry on.' } as const);
  });
}

/**
 * A save the site refused for good whose every field the technician saved again before the refusal came
 * (while it was out, or after a try that met no site: a later save of the session, queued behind it): it
 * gives way to theirs instead of holding the session with values they had already replaced (step-values.ts
 * does the same for a save made after the refusal).
 */
function savedAgainSince(ctx: WorklogContext, row: OutboxRow, payload: StepDataPayload): boolean {
  const later = new Set<string>();
  for (const next of ctx.outbox.inChain(row.chain)) {
    const read = next.id > row.id && next.kind === stepDataAction.name ? stepDataAction.parse(next) : null;
    if (read?.ok) for (const field of read.payload.fields) later.add(field.fieldGuid);
  }
  if (!payload.fields.every((field) => later.has(field.fieldGuid))) return false;
  ctx.transaction(() => ctx.outbox.remove(row.id));
  return true;
}

function recordServerValue(
  ctx: WorklogContext,
  sessionId: string,
  field: Field,
  confirmed: string | null,
  stepid: number,
): void {
  ctx.sessions.setServerValue(sessionId, field.fieldGuid, confirmed, false, {
    fieldRevisionid: field.fieldRevisionid,
    stepid,
  });
}

/** A field the revised form no longer has: what the technician entered is kept in a conflict record. */
function keepRemoved(ctx: WorklogContext, sessionId: string, stepid: number, removed: Field[]): void {
  for (const field of removed) {
    ctx.conflict({
      sessionId,
      kind: 'field',
      fieldGuid: field.fieldGuid,
      stepid,
      label: `Field removed from the form`,
      mine: field.value,
      theirs: null,
      base: field.base,
      message: 'The form of this step was revised and no longer has this field; your value is kept here.',
    });
  }
}

/** Values saved in a step's form; a later save of the same step merges into it while it waits (work-sessions.ts). */
export const stepDataAction = worklogAction('stepData', stepDataPayload, replayStepData, {
  describe: describeStepData,
  changeAt: stepDataChangeAt,
});
