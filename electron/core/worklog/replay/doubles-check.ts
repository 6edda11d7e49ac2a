import type { z } from 'zod';
import { classify, saidNo, unknownKind } from '../../api/failure.ts';
import { deleteUpload, findUploads } from '../../api/user-media-api.ts';
import { deleteEntry } from '../../api/work-log-api.ts';
import { worklogAction, type WorklogContext, type WorklogHandler } from './context.ts';
import { landedEntries, untouched } from './landed.ts';
import { doublesPayload } from './payloads.ts';

/**
 * A second copy can still land after a start or an upload was looked for and sent again (doubles.ts).
 * Once one whose outcome was unknown is settled, the site is checked for a second copy at these multiples
 * of the request's time limit after it (20 s: at 40 s, 160 s, 20 min and 2 h), and any found is removed.
 * Send now and the network coming back leave these times as they are (db/repos/outbox-repo.ts).
 */
export const CHECKS_AFTER = [2, 8, 60, 360] as const;

type Check = z.infer<typeof doublesPayload>;
/** How a removal went: removed, or not (changed on the site since, refused in the site's words); null: already gone. */
type Removal = { removed: true } | { removed: false; why: string } | null;

/**
 * Looks on the site for a second copy of a start or an upload that a slow site made after it was sent
 * again (doubles.ts), removes it, and tells the technician in a notice. A second entry someone changed
 * since it was made is left, and said. Done after the last check; a failed request is retried like any.
 */
const replayDoublesCheck: WorklogHandler<Check> = async (ctx, row, check) => {
  let more: boolean;
  try {
    more = check.of === 'start' ? await removeEntries(ctx, check) : await removeUploads(ctx, check);
  } catch (error) {
    // The site will not show them (a 403, a 404 of a site without the list): there is nothing to check.
    const failure = classify(error);
    if (!saidNo(failure) || failure.kind === 'signed-out') throw error;
    more = false;
  }
  const next = more ? nextCheck(ctx, check.since) : null;
  if (next === null) {
    ctx.outbox.remove(row.id);
    return { type: 'done' };
  }
  return { type: 'wait', atMs: next, message: 'Checking the site for a second copy.' };
};

/** Removes second entries of the session's start; false when there is nothing left to check for. */
async function removeEntries(ctx: WorklogContext, check: Extract<Check, { of: 'start' }>): Promise<boolean> {
  const session = ctx.sessions.state(check.sessionId);
  if (!session || session.entryid === null) return false;
  const landed = await landedEntries(ctx, session, session.userid, check.times, session.id, session.entryid);
  const kept = `the session goes on in entry ${session.entryid}`;
  for (const extra of landed.filter((entry) => entry.entryid !== session.entryid)) {
    const remove = () => deleteEntry(ctx.transport, extra.entryid, extra.revisionid);
    const outcome = untouched(extra) ? await removal(remove) : CHANGED;
    if (outcome === null) continue;
    const said = `${slow('start')} and the site made a second entry (${extra.entryid})`;
    if (outcome.removed) notice(ctx, session.id, 'A second entry removed', `${said}; Fieldguide removed it: ${kept}.`);
    else {
      const message = `${said}, which ${outcome.why}, so it is still there: ${kept}. Remove it on the site.`;
      notice(ctx, session.id, 'A second entry for this session is on the site', message);
    }
  }
  return true;
}

/** Removes second copies of an uploaded file; false when there is nothing left to check for. */
async function removeUploads(ctx: WorklogContext, check: Extract<Check, { of: 'upload' }>): Promise<boolean> {
  const attachment = ctx.sessions.attachment(check.attachmentId);
  if (!attachment || attachment.serverItemid === null) return false;
  const uploads = await findUploads(ctx.transport, attachment.uploadName, ctx.uploads);
  const name = attachment.uploadName.replace(/^fg-[0-9a-f-]{36}-/, '');
  const said = `${slow(`upload of ${name}`)} and the site kept it twice`;
  for (const extra of uploads.filter((upload) => upload.id !== attachment.serverItemid)) {
    const outcome = await removal(() => deleteUpload(ctx.transport, extra));
    if (outcome === null) continue;
    const copy = `the second copy (media item ${extra.id})`;
    if (outcome.removed) {
      const message = `${said}; Fieldguide removed ${copy}. The step keeps the first.`;
      notice(ctx, attachment.sessionId, `A second copy of ${name} removed`, message);
    } else {
      const message = `${said}; ${copy} ${outcome.why}, so it is still there. Remove it on the site.`;
      notice(ctx, attachment.sessionId, `A second copy of ${name} is on the site`, message);
    }
  }
  return true;
}

const slow = (what: string): string => `The site did not answer the ${what} in time, so Fieldguide sent it again,`;
const CHANGED = { removed: false, why: 'was changed on the site since' } as const;

/**
 * Runs a removal: removed; null when it was already gone; not removed, with why. A failure that may pass
 * (no answer, a 5xx, 429) is thrown: the check is tried again later, like any action.
 */
async function removal(remove: () => Promise<void>): Promise<Removal> {
  try {
    await remove();
    return { removed: true };
  } catch (error) {
    const failure = classify(error);
    switch (failure.kind) {
      case 'gone':
        return null;
      case 'conflict':
        return CHANGED;
      case 'signed-out':
      case 'forbidden':
      case 'not-offered':
      case 'refused':
        return { removed: false, why: `the site would not let Fieldguide remove (${failure.message})` };
      case 'unreachable':
      case 'timeout':
      case 'busy':
      case 'site-error':
      case 'unexpected':
      case 'local':
        throw error;
      default:
        return unknownKind(failure);
    }
  }
}

function notice(ctx: WorklogContext, sessionId: string, label: string, message: string): void {
  const none = { fieldGuid: null, stepid: null, mine: null, theirs: null, base: null };
  ctx.transaction(() => ctx.conflict({ sessionId, kind: 'notice', label, message, ...none }));
}

/** When the checks queued at `since` look next, after now; null once the last has been made. */
function nextCheck(ctx: WorklogContext, since: number): number | null {
  const now = ctx.nowMs();
  return CHECKS_AFTER.map((n) => since + n * ctx.transport.timeoutMs).find((at) => at > now) ?? null;
}

/**
 * The hidden check for a second copy (`doubles`), in a chain of its own: the work log's bookkeeping,
 * nobody's work to wait for, so the outbox neither counts nor shows it.
 */
export const doublesCheckAction = worklogAction('doubles', doublesPayload, replayDoublesCheck, {
  describe: () => 'Check the site for a second copy',
  bookkeeping: true,
});
