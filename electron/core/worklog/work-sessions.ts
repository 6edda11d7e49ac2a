import type {
  AttachFileInput,
  OthersOpenSession,
  SaveStepDataInput,
  SignOffInput,
  StartSessionInput,
  WorkSession,
  WorkTransition,
} from '../../contract.ts';
import { ownerFolder } from '../db/owner-only.ts';
import { AppFailure } from '../result.ts';
import { answerRanUnwatched } from './actions/ran-unwatched.ts';
import { startSession } from './actions/start.ts';
import { attachFile, keepAttachmentFile, saveAttachedAgain, saveStepData, type KeptFile } from './actions/step-data.ts';
import { transitionSession } from './actions/transition.ts';
import { NOT_YOURS, SessionAccess } from './session-access.ts';
import type { WorkSessionsDeps } from './work-sessions-deps.ts';

/**
 * Accepts what a technician does in a work session. Each action is checked against the state machine,
 * applied to the local projection and queued in the outbox, with who did it, in ONE transaction: accepted
 * means durable, and it never needs the network. A technician sees and acts in their own sessions only.
 * One file per action (actions/).
 */
export class WorkSessions {
  readonly #access: SessionAccess;
  /** Files kept for attachments not yet recorded, by the input they were kept for (`keepFile`). */
  readonly #kept = new WeakMap<AttachFileInput, KeptFile>();

  constructor(private readonly deps: WorkSessionsDeps) {
    ownerFolder(deps.attachmentsDir);
    this.#access = new SessionAccess(deps);
  }

  start(input: StartSessionInput): WorkSession {
    return this.#changed(startSession(this.deps, input));
  }

  transition(sessionId: string, transition: WorkTransition, signOff?: SignOffInput): WorkSession {
    transitionSession(this.deps, this.#access, sessionId, transition, signOff);
    return this.#changed(sessionId);
  }

  /** Whether the time the session ran with Fieldguide closed was work (actions/ran-unwatched.ts). */
  answerRanUnwatched(sessionId: string, work: boolean): WorkSession {
    answerRanUnwatched(this.deps, this.#access, sessionId, work);
    return this.#changed(sessionId);
  }

  /** A file attached to a field, saved in it again (a conflict's Keep mine). */
  saveAttachedAgain(input: {
    sessionId: string;
    stepid: number;
    fieldGuid: string;
    attachmentId: string;
  }): WorkSession {
    saveAttachedAgain(this.deps, this.#access, input);
    return this.#changed(input.sessionId);
  }

  saveStepData(input: SaveStepDataInput): WorkSession {
    saveStepData(this.deps, this.#access, input);
    return this.#changed(input.sessionId);
  }

  /**
   * A file for an attachment written and flushed on the thread pool, before `attach` (the App API's
   * `prepare`, invoke.ts), which takes it by the same input.
   */
  async keepFile(input: AttachFileInput): Promise<void> {
    this.#kept.set(input, await keepAttachmentFile(this.deps, input));
  }

  attach(input: AttachFileInput): WorkSession {
    const kept = this.#kept.get(input);
    if (!kept) throw new Error('attach: its file was not kept first (keepFile)');
    this.#kept.delete(input);
    attachFile(this.deps, this.#access, input, kept);
    return this.#changed(input.sessionId);
  }

  /**
   * The current technician's sessions on this computer (of one guide, or all), newest first: every open one,
   * and the `ended` newest ended (all when not given).
   */
  list(filter: { guideid?: number; ended?: number }): WorkSession[] {
    return this.deps.store.sessions.list(filter, this.deps.technician().id).map((id) => this.view(id));
  }

  /** Other technicians' open sessions of a guide under a work order here: who, and how far, no more. */
  othersOpen(input: { guideid: number; workorderid: string }): OthersOpenSession[] {
    return this.deps.store.technicians.othersOpen(this.deps.technician().id, input.guideid, input.workorderid);
  }

  /** One of the current technician's sessions; another's is "no such session" to them. */
  view(sessionId: string): WorkSession {
    const view =
      this.deps.store.sessions.technicianOf(sessionId) === this.deps.technician().id
        ? this.deps.store.sessions.view(sessionId)
        : undefined;
    if (!view) throw new AppFailure('not_found', NOT_YOURS, { sessionId });
    return view;
  }

  #changed(sessionId: string): WorkSession {
    const view = this.view(sessionId);
    this.deps.onChange(view);
    return view;
  }
}
