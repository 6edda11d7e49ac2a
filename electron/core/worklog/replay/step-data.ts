import { classify } from '../../api/failure.ts';
import { currentEntryOf, putStepData, type SiteEntry } from '../../api/work-log-api.ts';
import type { OutboxRow } from '../../db/repos/outbox-repo.ts';
import { isEditable } from '../../../shared/worklog.ts';
import { adoptRevision, theirValues } from './adopt.ts';
import { learnSiteValues } from './learn-site.ts';
import { entryGone } from './entry-gone.ts';
import { guideGone, keepGoneStepData } from './guide-gone.ts';
import { followSite, siteTookIt } from './follow-site.ts';
import { mergeStepData, type FieldChange } from './merge.ts';
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
  const outcome = await sendStepData(ctx, row, payload);
  // Its files may go now that the save is recorded (kept-files.ts): one the site has, a conflict not holding it.
  for (const field of payload.fields) if (field.attachmentId) ctx.mayLetGo(field.attachmentId);
  return outcome;
};

async function sendStepData(
  ctx: WorklogContext,
  row: OutboxRow,
  payload: StepDataPayload,
): ReturnType<WorklogHandler<StepDataPayload>> {
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
      // Its entry deleted on the site: removed there, kept here read-only (entry-gone.ts), before the guide's look.
      if (!theirs && (await entryGone(ctx, row, { ...session, entryid: session.entryid }, error)))
        return { type: 'done' };
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
}

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
  const { site, editable, baseOf, checkedLater, record } = siteCheck(ctx, session, theirs);
  const mineOf = (field: Field): string | null => sentValues[String(field.fieldRevisionid)] ?? null;
  const changes = sendable.map((field) => ({ fieldGuid: field.fieldGuid, base: field.base, mine: mineOf(field) }));
  const result = editable
    ? mergeStepData(changes, site)
    : { send: [], alreadyThere: [], conflicts: changes.map((c) => ({ ...c, theirs: site.get(c.fieldGuid) ?? null })) };
  const byGuid = new Map(sendable.map((f) => [f.fieldGuid, f]));
  return ctx.transaction(() => {
    ctx.sessions.update(session.id, { serverRevisionid: theirs.revisionid }, ctx.now());
    for (const done of result.alreadyThere)
      recordServerValue(ctx, session.id, byGuid.get(done.fieldGuid)!, done.mine, payload.stepid);
    // A field a later save of the session holds, and checkLaterSaves looks at, is said once, with the newer value.
    const later = laterSaves(ctx, actionId);
    const savedLater = new Set(later.flatMap((l) => l.payload.fields.filter(checkedLater).map((f) => f.fieldGuid)));
    for (const conflict of result.conflicts)
      if (!savedLater.has(conflict.fieldGuid)) record(conflict, byGuid.get(conflict.fieldGuid)!, payload.stepid);
    checkLaterSaves(ctx, { later, earlier: changes, site, baseOf, checkedLater, editable }, record);
    keepRemoved(ctx, session.id, payload.stepid, removed);
    // The rest of what the site has now, that nobody here changed: the session takes it (learn-site.ts).
    const handled = [...sendable, ...removed, ...later.flatMap((l) => l.payload.fields)].map((f) => f.fieldGuid);
    learnSiteValues(ctx, session, site, new Set(handled));
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
 * What a 409's entry (the site's now) is checked with: its values by field, whether it still takes values, a
 * field's base (the site's value when it is what this computer last knew the site had: nobody changed it since,
 * whatever a save's own base, taken before an earlier save of it was confirmed), the fields a later save's
 * check looks at (on the form, not a file's: its media id is not known before its upload), and the record of
 * a field changed on both sides.
 */
function siteCheck(ctx: WorklogContext, session: { id: string; guideid: number }, theirs: SiteEntry) {
  const site = theirValues(ctx.guides, session.guideid, theirs);
  const editable = isEditable(theirs.status);
  const known = new Map(ctx.sessions.values(session.id).map((v) => [v.fieldGuid, v.serverValue]));
  const baseOf = (guid: string, base: string | null): string | null => {
    const current = site.get(guid) ?? null;
    return known.has(guid) && known.get(guid) === current ? current : base;
  };
  const labels = new Map(
    ctx.guides.formsOfGuide(session.guideid).flatMap((form) => form.fields.map((f) => [f.fieldGuid, f.label] as const)),
  );
  const checkedLater = (field: Field) => !field.attachmentId && labels.has(field.fieldGuid);
  const record = (conflict: Conflicted, field: Field, stepid: number): void => {
    // "Keep yours" was chosen over the site's value this save was based on, and the site has another now: the
    // card back with the same words read as if the tap had done nothing. (A keep of long ago, whose save went
    // through, had another base.)
    const kept = ctx.conflicts.keptMineOver(session.id, conflict.fieldGuid);
    const keptOver = kept === undefined ? undefined : (kept.theirs ?? null);
    const again = keptOver === (conflict.base ?? null) && keptOver !== (conflict.theirs ?? null);
    ctx.conflict({
      sessionId: session.id,
      kind: 'field',
      fieldGuid: conflict.fieldGuid,
      stepid,
      label: labels.get(conflict.fieldGuid) ?? conflict.fieldGuid,
      mine: conflict.mine,
      theirs: conflict.theirs,
      base: conflict.base,
      attachmentId: field.attachmentId ?? null,
      message: !editable
        ? `The session is ${theirs.status} on the site, so this value was not saved there.`
        : again
          ? "You kept yours, but the site's value changed again before it got there: decide again with what it " +
            'has now.'
          : 'This field was changed here and on the site to different values.',
    });
    // The site's value becomes the base: keeping mine later sends it against what the site has now.
    ctx.sessions.setServerValue(session.id, conflict.fieldGuid, conflict.theirs, false, {
      fieldRevisionid: field.fieldRevisionid,
      stepid,
    });
  };
  return { site, editable, baseOf, checkedLater, record };
}

/**
 * A transition rebased on a 409's entry (the site's now, changed by someone else): the session's saves queued
 * behind it are checked against it (they go on its revision: unchecked, a field the office changed meanwhile
 * was overwritten without a card), and the values nobody here changed are learned. In the transaction of the
 * rebase.
 */
export function checkQueuedSaves(ctx: WorklogContext, sessionId: string, actionId: number, theirs: SiteEntry): void {
  const session = ctx.sessions.state(sessionId);
  if (!session) return;
  const { site, editable, baseOf, checkedLater, record } = siteCheck(ctx, session, theirs);
  const later = laterSaves(ctx, actionId);
  checkLaterSaves(ctx, { later, earlier: [], site, baseOf, checkedLater, editable }, record);
  learnSiteValues(ctx, session, site, new Set(later.flatMap((l) => l.payload.fields.map((f) => f.fieldGuid))));
}

type Conflicted = ReturnType<typeof mergeStepData>['conflicts'][number];
type LaterSave = { row: OutboxRow; payload: StepDataPayload };

/** The saves of the session queued after `actionId`, oldest first. */
function laterSaves(ctx: WorklogContext, actionId: number): LaterSave[] {
  const row = ctx.outbox.get(actionId)!;
  return ctx.outbox.inChain(row.chain).flatMap((next) => {
    const read = next.id > actionId && next.kind === stepDataAction.name ? stepDataAction.parse(next) : null;
    return read?.ok ? [{ row: next, payload: read.payload }] : [];
  });
}

/**
 * The session's later saves, checked against the site's values learned now: the session takes the site's
 * revision here, and they go on it. Unchecked, a field the site changed meanwhile (an office user cleared a
 * check) was overwritten without a word when it waited in a save of another step behind the refused one.
 * A field changed on both sides becomes a conflict (once, at its newest save); one the site already has is
 * done; the rest still go. A file's value goes as it is (the site's media id is not known before its upload),
 * and a field the form no longer has is kept when its save goes (keepRemoved).
 */
function checkLaterSaves(
  ctx: WorklogContext,
  check: {
    later: LaterSave[];
    /** The values of the save being merged: the site may have them already (an answer lost on the way). */
    earlier: readonly FieldChange[];
    site: ReadonlyMap<string, string | null>;
    /** A field's base, or the site's value when it is what this computer last knew the site had. */
    baseOf: (guid: string, base: string | null) => string | null;
    /** A field it looks at: not a file's (its media id is not known before its upload), and on the form. */
    checkedLater: (field: Field) => boolean;
    editable: boolean;
  },
  record: (conflict: Conflicted, field: Field, stepid: number) => void,
): void {
  const { later, site, editable } = check;
  const newest = new Map<string, number>();
  for (const { row, payload } of later) for (const field of payload.fields) newest.set(field.fieldGuid, row.id);
  // What this technician saved of a field before (queued, maybe landed): the site holding one of them is
  // their own change, not somebody else's.
  const own = new Map<string, Set<string | null>>();
  const saw = (guid: string, value: string | null) => own.set(guid, (own.get(guid) ?? new Set()).add(value));
  for (const change of check.earlier) saw(change.fieldGuid, change.mine);
  for (const { row, payload } of later) {
    const checked = payload.fields.filter(check.checkedLater);
    const changes = checked.map((field) => {
      const current = site.get(field.fieldGuid) ?? null;
      const base = own.get(field.fieldGuid)?.has(current) ? current : check.baseOf(field.fieldGuid, field.base);
      return { fieldGuid: field.fieldGuid, base, mine: field.value };
    });
    for (const field of payload.fields) saw(field.fieldGuid, field.value);
    const result = editable
      ? mergeStepData(changes, site)
      : {
          send: [],
          alreadyThere: [],
          conflicts: changes.map((c) => ({ ...c, theirs: site.get(c.fieldGuid) ?? null })),
        };
    const settled = new Set<string>();
    const byGuid = new Map(checked.map((field) => [field.fieldGuid, field]));
    for (const done of result.alreadyThere) {
      recordServerValue(ctx, payload.sessionId, byGuid.get(done.fieldGuid)!, done.mine, payload.stepid);
      settled.add(done.fieldGuid);
    }
    for (const conflict of result.conflicts) {
      if (newest.get(conflict.fieldGuid) === row.id) record(conflict, byGuid.get(conflict.fieldGuid)!, payload.stepid);
      settled.add(conflict.fieldGuid);
    }
    if (settled.size === 0) continue;
    const still = payload.fields.filter((field) => !settled.has(field.fieldGuid));
    if (still.length === 0) ctx.outbox.remove(row.id);
    else ctx.outbox.replacePayload(row.id, stepDataAction, { ...payload, fields: still }, row.actedAt);
  }
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

/**
 * A field the revised form no longer has: what the technician entered is kept in a conflict record, named by
 * the field's label on the revision the session follows (the technician's words for it), a file with it.
 */
function keepRemoved(ctx: WorklogContext, sessionId: string, stepid: number, removed: Field[]): void {
  if (removed.length === 0) return;
  const session = ctx.sessions.state(sessionId);
  const step = session && ctx.guides.getRevision(session.guideid, session.guideRevisionid);
  const fields = step ? (step.steps.find((s) => s.stepid === stepid)?.form?.fields ?? []) : [];
  const labels = new Map(fields.map((f) => [f.fieldGuid, f.label]));
  for (const field of removed) {
    ctx.conflict({
      sessionId,
      kind: 'field',
      fieldGuid: field.fieldGuid,
      stepid,
      label: labels.get(field.fieldGuid) || 'A field removed from the form',
      mine: field.value,
      theirs: null,
      base: field.base,
      message: 'The form of this step was revised and no longer has this field; your value is kept here.',
      attachmentId: field.attachmentId ?? null,
    });
  }
}

/** Values saved in a step's form; a later save of the same step merges into it while it waits (work-sessions.ts). */
export const stepDataAction = worklogAction('stepData', stepDataPayload, replayStepData, {
  describe: describeStepData,
  changeAt: stepDataChangeAt,
});
