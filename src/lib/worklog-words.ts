import type { AppError, ValueOnSite, WorkSession, WorkStatus, WorkTransition } from '../../electron/contract.ts';
import { freeSomeSpace, writeDownThenRestart } from '../../electron/shared/disk-words.ts';
import { plural } from './format.ts';

export const TRANSITION_LABELS: Record<WorkTransition, string> = {
  pause: 'Pause',
  resume: 'Resume',
  suspend: 'Hand over',
  assume: 'Take over',
  finish: 'Finish',
  cancel: 'Cancel session',
};

/** What did not happen when a transition was refused, said before why ("Not paused. The disk is full…"). */
export const TRANSITION_REFUSED: Record<WorkTransition, string> = {
  pause: 'Not paused',
  resume: 'Not resumed',
  suspend: 'Not handed over',
  assume: 'Not taken back',
  finish: 'Not finished',
  cancel: 'Not cancelled',
};

/**
 * A file or photo of a step's field refused, said beside the field as a refused transition or Save is: what did
 * not happen first ("Not removed."), then the core's reason. A refused Remove said the reason alone ("The disk is
 * full, …"), and the file still shown read as if removing it had worked halfway.
 */
export function fileRefusedWords(what: 'attach' | 'remove', reason: string): string {
  return `${what === 'attach' ? 'Not attached' : 'Not removed'}. ${reason}`;
}

/**
 * A step's save refused, said once under its form by Save: what did not happen first ("Not saved.", as "Not
 * paused." says), then on a full disk what became of the typing and what to do. `onScreenOnly`: some of it
 * could not be kept as a draft either (the window's own files on the same disk). The field said "save this
 * step now" above the core's "…then try again": saving was what had just failed.
 */
export function saveRefusedWords(error: Pick<AppError, 'code' | 'message'>, onScreenOnly: boolean): string {
  if (error.code === 'storage_failed') return diskFailedWords(onScreenOnly);
  if (error.code !== 'storage_full') return `Not saved. ${error.message}`;
  const typed = onScreenOnly
    ? 'What you typed is still in the form, and not lost while this window stays open.'
    : 'What you typed is kept on this computer.';
  return `Not saved. The disk is full. ${typed} ${freeSomeSpace()}, then press Save again.`;
}

/**
 * A save refused by a disk that cannot be written (read-only, failing): nothing more saves until a restart, and the
 * restart loses the typing the window holds, so the words say where it is and to write it down before restarting.
 * "Restart the computer", alone, would have lost it.
 */
function diskFailedWords(onScreenOnly: boolean): string {
  const typed = onScreenOnly
    ? 'What you typed is still in the form, and lost when this window closes.'
    : 'What you typed is still in the form; its draft may be lost with the disk.';
  return (
    'Not saved. This computer cannot write to its disk (it has turned read-only or is failing), so nothing more ' +
    `saves until the computer restarts; everything saved before is kept. ${typed} ` +
    `${writeDownThenRestart('what you typed')}`
  );
}

export const STATUS_LABELS: Record<WorkStatus, string> = {
  started: 'In progress',
  paused: 'Paused',
  suspended: 'Handed over',
  complete: 'Complete',
  cancelled: 'Cancelled',
};

/** The change of state done here, said as done ("Finished here"), for where the site does not have it yet. */
const DONE_HERE: Record<'start' | WorkTransition, string> = {
  start: 'Started',
  pause: 'Paused',
  resume: 'Resumed',
  suspend: 'Handed over',
  assume: 'Taken over',
  finish: 'Finished',
  cancel: 'Cancelled',
};

/**
 * The session's last change of state, when the site does not have it yet ("Finished here, not on the site yet:
 * …"); null when it does. A printed report said "Complete" over a finish the site never had.
 */
export function stateNotOnSiteWords(session: Pick<WorkSession, 'stateNotOnSite'>): string | null {
  const state = session.stateNotOnSite;
  if (!state) return null;
  const done = DONE_HERE[state.action];
  if (state.because === 'refused') return `${done} here, not on the site: the site refused it (see the sync centre).`;
  return state.because === 'held'
    ? `${done} here, not on the site yet: it waits behind an action the site refused (see the sync centre).`
    : `${done} here, not on the site yet: it goes when the site answers.`;
}

/**
 * A session whose state the sync took from the site (paused, resumed or handed over on another computer or on the
 * site, by its own technician): said on its row and in its header, until they change its state here. A session
 * running here was seen paused with no word of why; nothing of theirs was lost, so it is no conflict card. Null
 * when its state is this computer's, or another line says it (handed back by a colleague, removed on the site).
 * `when`: a time in the technician's words (lib/format.ts formatDateTime).
 */
export function fromSiteWords(
  session: Pick<WorkSession, 'stateFromSite' | 'status' | 'pausedAt' | 'handedBack' | 'removedOnSite'>,
  when: (unixSeconds: number) => string,
): string | null {
  if (session.stateFromSite === null || session.handedBack !== null || session.removedOnSite !== null) return null;
  const where = 'on another computer or on the site';
  // The site keeps no time of a resume: said without one.
  if (session.status === 'started') return `Resumed ${where}`;
  const done = session.status === 'paused' ? 'Paused' : session.status === 'suspended' ? 'Handed over' : null;
  if (done === null) return null;
  return session.pausedAt !== null ? `${done} ${where} at ${when(session.pausedAt)}` : `${done} ${where}`;
}

/**
 * What of a session needs the technician in the sync centre, as it counts it ("1 conflict · 2 failed"), or
 * '' when nothing does: the work those hold did not reach the site.
 */
export function unsettledWords(session: Pick<WorkSession, 'openConflicts' | 'failedActions'>): string {
  const { openConflicts, failedActions } = session;
  const parts = [
    openConflicts > 0 ? plural(openConflicts, 'conflict') : '',
    failedActions > 0 ? `${failedActions} failed` : '',
  ];
  return parts.filter((part) => part !== '').join(' · ');
}

/**
 * The session summary's "On the site": what waits to be sent, what the site refused or a conflict holds, and
 * what stays here only. A refused save that holds the rest was said as "1 change still to send" alone.
 */
export function onSiteWords(
  session: Pick<WorkSession, 'openConflicts' | 'failedActions' | 'pendingActions' | 'entryid' | 'values'> &
    Partial<Pick<WorkSession, 'signOff' | 'removedOnSite'>>,
): string {
  const unsettled = unsettledWords(session);
  const pending = session.pendingActions > 0 ? `${plural(session.pendingActions, 'change')} still to send` : '';
  if (unsettled) return `Not all: ${unsettled} in the sync centre${pending ? `, and ${pending}` : ''}`;
  const said = pending || keptHereOnlyWords(session);
  if (said) return said;
  // A sign-off the guide's forms have no field for stays here, in the report (a walk was told "Everything").
  return session.signOff?.sentAs === 'kept-here'
    ? 'Everything but the sign-off, which stays on this computer (the site has no field for it)'
    : 'Everything has reached the site';
}

/**
 * What of a session stays on this computer only, with nothing of it waiting to be sent nor refused: all of
 * it when its start was discarded (the site never made its entry) or the site deleted it, else the values whose
 * save was discarded. Null when the site has all of it. Each was said as "Everything has reached the site".
 */
export function keptHereOnlyWords(
  session: Pick<WorkSession, 'entryid' | 'values' | 'pendingActions'> & Partial<Pick<WorkSession, 'removedOnSite'>>,
): string | null {
  // Deleted from the site's work log: its header said "Saved work is on the site" under the banner saying so.
  if (session.removedOnSite != null) return 'Not on the site: kept on this computer only';
  // Its start still waits to go (or went, and no answer came: it may be on the site already), said as "2 to
  // send": not "kept on this computer only" beside it (found opening the app again after it was killed).
  if (session.entryid === null)
    return session.pendingActions > 0 ? null : 'Not on the site: kept on this computer only';
  const unsent = session.values.filter((value) => value.site === 'refused' || value.site === 'kept').length;
  return unsent > 0 ? `Not all: ${plural(unsent, 'value')} kept on this computer only` : null;
}

/**
 * What a field says of a value whose save the site refused for good (`words`: the site's own, "What did the
 * condensate look like?: one of: Milky, Oily"), and what the technician does: saved again, the new value
 * takes the refused save's place (core step-values.ts), and the rest of the session goes.
 */
export function refusedValueWords(words: string, open: boolean): string {
  const what = `The site did not take this value: ${words.replace(/[.\s]+$/, '')}.`;
  // An ended session takes no change: only the discard lets the rest of it go.
  return open
    ? `${what} Change it and save again, or discard the save in the sync centre; the rest of the session waits ` +
        'until then.'
    : `${what} The session has ended, so it cannot be changed: discard the save in the sync centre to send the ` +
        'rest of it.';
}

/** What a technician does about an attached file that cannot be read back from this computer. */
export const REPLACE_IT = 'Attach it again.';

/**
 * Where an attached file stands, in words and a tone: uploaded is not yet recorded. The file goes first,
 * then the step's save that names it in the session; until that save reaches the site, the photo is not
 * part of the work record there, and a save the site refused is said with where to settle it.
 */
export function attachmentWords(
  attachment: { uploaded: boolean; notSent: string | null },
  site: ValueOnSite,
  dropped = false,
): { words: string; tone: 'ok' | 'warn' | 'bad' } {
  // Its upload failed (the site would not take it): why, and what to do; not "uploads when online".
  if (!attachment.uploaded && attachment.notSent !== null) return { words: attachment.notSent, tone: 'bad' };
  // Never sent: the site's revised form no longer has the field (the field's note says so).
  if (site === 'kept') return { words: 'Kept on this computer only', tone: 'warn' };
  // Nothing of it waits anywhere (its upload or save discarded): not "see the sync centre", where nothing is.
  if (site === 'refused' && dropped)
    return attachment.uploaded
      ? { words: "Uploaded, but not in the site's record: its save no longer waits to be sent", tone: 'bad' }
      : { words: 'Not on the site, and no longer waiting to be sent', tone: 'bad' };
  if (site === 'refused') {
    const what = attachment.uploaded ? "Uploaded, but the site did not take the step's save" : 'Not sent';
    return { words: `${what}: see the sync centre`, tone: 'bad' };
  }
  if (!attachment.uploaded) return { words: 'Kept here, not uploaded yet', tone: 'warn' };
  if (site === 'waiting') return { words: "Uploaded; the step's save is not sent yet", tone: 'warn' };
  return { words: 'Uploaded', tone: 'ok' };
}

/**
 * Sessions the site listed that this version cannot read (an entry of a shape it does not know): not shown,
 * but said, with where to take them over. `more`: rows are listed above ("1 more session"), else none is.
 */
export function unreadableSessionsWords(count: number, more: boolean): string {
  const sessions = `${count}${more ? ' more' : ''} session${count === 1 ? '' : 's'}`;
  const [it, them] = count === 1 ? ['it is', 'it'] : ['they are', 'them'];
  return (
    `${sessions} on the site could not be read, so ${it} not shown here. ` +
    `Take ${them} over on the site, or tell your site's administrator.`
  );
}

/**
 * Where the session's work stands, as the Finish review says it: refused, waiting, or on the site. Never
 * "everything has reached the site" beside a conflict, whose value is the site's until it is settled, nor
 * beside a value kept here because the site's revised form dropped its field (`kept`: no "site's own value"
 * to keep there, and nothing to settle but to read it).
 */
export function reviewPendingWords(counts: {
  failed: number;
  pending: number;
  conflicts: number;
  kept?: number;
  /** Values whose save (or upload) was discarded: nothing of them waits, and they will not reach the site. */
  dropped?: number;
}): string {
  const { failed, pending, conflicts } = counts;
  const [kept, dropped] = [counts.kept ?? 0, counts.dropped ?? 0];
  const held =
    (conflicts > 0
      ? ` ${plural(conflicts, 'conflict')} of this session ${conflicts === 1 ? 'waits' : 'wait'} for you in the ` +
        `sync centre: the site keeps its own value until you settle ${conflicts === 1 ? 'it' : 'them'}. Settle ` +
        `${conflicts === 1 ? 'it' : 'them'} before you finish: once the session is finished, your ` +
        `${conflicts === 1 ? 'value' : 'values'} can no longer be sent, only copied.`
      : '') +
    (kept > 0
      ? ` ${plural(kept, 'value')} of this session ${kept === 1 ? 'stays' : 'stay'} on this computer only: the ` +
        `site's revised form no longer has ${kept === 1 ? 'its field' : 'their fields'}.`
      : '') +
    (dropped > 0
      ? ` ${plural(dropped, 'value')} of this session will not reach the site: ` +
        `${dropped === 1 ? 'it was' : 'they were'} discarded (a save, or a file's upload).`
      : '');
  if (failed > 0)
    return (
      `The site did not take ${plural(failed, 'change')} of this session: ${failed === 1 ? 'it waits' : 'they wait'} ` +
      `in the sync centre, and what follows waits behind.${held}`
    );
  if (pending > 0)
    return (
      `${plural(pending, 'change')} of this session ${pending === 1 ? 'waits' : 'wait'} to reach the site; ` +
      `${pending === 1 ? 'it goes' : 'they go'} when it answers.${held}`
    );
  return held ? held.trim() : 'Everything saved so far has reached the site.';
}

/**
 * Where the taker's list of sessions handed over came from on a site that lists them guide by guide only: the guides
 * asked (worked on or kept here), of how many, and where one handed over on another guide shows.
 */
export function handedOverByGuideWords(byGuide: { asked: number; known: number }, shown: number): string {
  if (byGuide.asked === 0)
    return (
      'This site lists them guide by guide, and no guide is worked on or kept on this computer yet: one handed ' +
      "over shows on its guide's page."
    );
  const of = byGuide.known > byGuide.asked ? ` (of ${byGuide.known})` : '';
  return (
    `${shown > 0 ? 'From' : 'None on'} the ${plural(byGuide.asked, 'guide')}${of} worked on or kept on this ` +
    "computer: this site lists them guide by guide. One handed over on another guide shows on that guide's page."
  );
}

/**
 * The site keeps the session's entry on another guide revision than the one the session follows (its start
 * reached the site after the author revised the guide): whoever reads it on the site sees steps and fields the
 * technician never saw, the new ones unanswered. Said in the revised notice of an open session and in the summary
 * and report of an ended one; null when the site keeps it on the session's own revision, or has not said.
 */
export function siteRevisionWords(
  session: Pick<WorkSession, 'guideRevisionid' | 'siteGuideRevisionid'>,
): string | null {
  const site = session.siteGuideRevisionid;
  if (site === null || site === session.guideRevisionid) return null;
  return site > session.guideRevisionid
    ? 'The site keeps this session on the guide as revised (its start reached the site after the change): whoever ' +
        'reads it there sees the revised steps, and fields this session did not ask for unanswered.'
    : 'The site keeps this session on an earlier revision of the guide than the one it follows here: whoever reads ' +
        "it there sees that revision's steps and fields, not the ones this session showed.";
}
