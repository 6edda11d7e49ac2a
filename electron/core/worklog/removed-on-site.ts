import { answerWords } from '../../shared/field-answers.ts';
import { SITE_DECIDED } from '../../shared/site-decided.ts';
import type { OutboxRow } from '../db/repos/outbox-repo.ts';
import { doneHere, type DecisionContext } from './replay/follow-site.ts';

/** The site's side of the record: the session's banner says it ("Deleted from the site's work log."). */
export const REMOVED_VERDICT = "Deleted from the site's work log";

/**
 * The site no longer has the session (a sync's read of its entry answered 404: someone deleted it there). It
 * stayed "Handed over", with a Take it back whose assume the site could only refuse. Now (in the caller's
 * transaction) it is kept here as it was, read-only, with its values (nothing the technician did is lost), nothing
 * more is sent for it, and one record says so, with its values in words to copy for a new session. The same for
 * a session running here whose queued action the site answered so (replay/entry-gone.ts): what was `queued` of
 * it leaves the outbox, its values in the record and its pauses or hand-overs listed ("Paused here at …").
 */
export function recordRemoved(
  ctx: DecisionContext,
  session: { id: string; guideid: number },
  queued: readonly OutboxRow[] = [],
): void {
  ctx.sessions.update(session.id, { removedOnSite: ctx.now() }, ctx.now());
  for (const row of queued) ctx.outbox.remove(row.id);
  const fields = new Map(
    ctx.guides.formsOfGuide(session.guideid).flatMap((form) => form.fields.map((f) => [f.fieldGuid, f] as const)),
  );
  const lines = ctx.sessions.values(session.id).flatMap((v) => {
    if (v.value === null && !v.attachmentId) return [];
    const known = fields.get(v.fieldGuid);
    const file = v.attachmentId ? ctx.sessions.attachment(v.attachmentId) : undefined;
    // In words, as the form asked (a checkbox is Yes / No); a file by its name, kept on this computer.
    const value = file ? `${file.uploadName} (the file is kept on this computer)` : answerWords(known, v.value);
    return [`${known?.label ?? v.fieldGuid}: ${value}`];
  });
  lines.push(...queued.flatMap(doneHere));
  const mine = lines.length > 0 ? lines.join('\n') : null;
  const kept = mine
    ? 'with what you entered, listed below: copy the values if you need them in a new session'
    : 'as it was';
  ctx.conflict({
    sessionId: session.id,
    kind: 'transition',
    fieldGuid: null,
    stepid: null,
    label: SITE_DECIDED.removed,
    mine,
    theirs: REMOVED_VERDICT,
    base: null,
    message:
      `${SITE_DECIDED.removed}: its work log no longer has this session. It is kept on this computer, read-only, ` +
      `${kept}; nothing more is sent for it.`,
  });
}
