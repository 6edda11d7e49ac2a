import type { ConflictRecord, WorkSession } from '../../contract.ts';
import type { Store } from '../db/store.ts';
import { AppFailure } from '../result.ts';
import type { WorkSessions } from './work-sessions.ts';

export interface ConflictsDeps {
  store: Store;
  work: WorkSessions;
  /** The current technician: they see and settle their own conflicts only. */
  technician: () => number;
  now: () => number;
  onSession: (session: WorkSession) => void;
  /** The outbox's summary counts open conflicts. */
  onSettled: () => void;
  /** A file an open conflict held (attachment-files-repo.ts) may go once it is settled. */
  keptFiles: { consider: (attachmentId: string) => void };
}

/** Disagreements with the site, kept until the technician settles each one (DESIGN.md §6). */
export class Conflicts {
  constructor(private readonly deps: ConflictsDeps) {}

  open(): ConflictRecord[] {
    return this.deps.store.conflicts.open(this.deps.technician());
  }

  /** Keep mine: the value is saved again against the site's current one. Keep theirs: the site's value stays. */
  settle(conflictId: number, keep: 'mine' | 'theirs'): ConflictRecord[] {
    const { store } = this.deps;
    const mine = store.conflicts.technicianOf(conflictId) === this.deps.technician();
    const conflict = mine ? store.conflicts.get(conflictId) : undefined;
    if (!conflict) throw new AppFailure('not_found', 'There is no such conflict.', { conflictId });
    const session = store.sessions.state(conflict.sessionId);
    // Keep mine on a value that can no longer be sent closed the card and sent nothing, without a word.
    if (keep === 'mine' && conflict.kind === 'field' && !conflict.keepable)
      throw new AppFailure(
        'invalid_input',
        'This value cannot be sent any more (its field or its session is gone from the site): copy it instead.',
        { conflictId },
      );
    if (conflict.kind === 'field' && conflict.fieldGuid && conflict.stepid !== null && session) {
      if (keep === 'mine' && conflict.keepable && conflict.attachment) {
        // A photo of theirs against a photo of mine: mine goes again as the file it is.
        const { fieldGuid, stepid } = conflict;
        this.deps.work.saveAttachedAgain({
          sessionId: session.id,
          stepid,
          fieldGuid,
          attachmentId: conflict.attachment.id,
        });
      } else if (keep === 'mine' && conflict.keepable) {
        this.deps.work.saveStepData({
          sessionId: session.id,
          stepid: conflict.stepid,
          values: [{ fieldGuid: conflict.fieldGuid, value: conflict.mine }],
        });
      } else if (keep === 'theirs' && !conflict.offForm && session.removedOnSite === null) {
        // (The site has no value for a field its form dropped, nor any for a session it no longer has: what the
        // technician entered stays in the session.)
        const current = store.sessions.values(session.id).find((v) => v.fieldGuid === conflict.fieldGuid);
        // The site's file is not on this computer: the step no longer shows the technician's as the one there.
        const attachmentId = conflict.attachment ? null : current?.attachmentId;
        // What they had typed stays said beside the site's value, in the summary and the report: kept the site's, the
        // office's words showed as the session's own, with no trace of the technician's.
        const replaced =
          conflict.attachment || conflict.mine === null || conflict.mine === conflict.theirs
            ? null
            : { was: conflict.mine, at: conflict.createdAt };
        if (current)
          store.sessions.setValue(session.id, { ...current, value: conflict.theirs, attachmentId }, replaced);
      }
    }
    store.conflicts.settle(conflictId, keep, this.deps.now());
    if (conflict.attachment) this.deps.keptFiles.consider(conflict.attachment.id);
    if (session) {
      const view = store.sessions.view(session.id);
      if (view) this.deps.onSession(view);
    }
    this.deps.onSettled();
    return this.open();
  }
}
