import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type {
  AttachFileInput,
  SaveStepDataInput,
  SignOffInput,
  StartSessionInput,
  StepFormField,
  WorkSession,
  WorkTransition,
} from '../../contract.ts';
import type { ServerClock, Stamp } from '../connection/server-clock.ts';
import { chainKey, pinKey } from '../db/chains.ts';
import { ownerFolder, writeOwnerFile } from '../db/owner-only.ts';
import type { Store } from '../db/store.ts';
import type { Outbox } from '../outbox/outbox.ts';
import { AppFailure } from '../result.ts';
import { startAction } from './replay/start.ts';
import { TRANSITION_ACTIONS } from './replay/transition.ts';
import { uploadAction } from './replay/upload.ts';
import { sessionChain } from './session-chain.ts';
import { queueStepValues } from './step-values.ts';
import { checkFieldValue, isMediaField } from '../../shared/field-values.ts';
import { ATTACHMENT_MAX_BYTES } from '../../shared/limits.ts';
import { applyClock } from '../../shared/work-clock.ts';
import { canApply, isEditable, isEnded, sourceOf } from '../../shared/worklog.ts';
import { makeSignOff, signOffField, signOffText } from './sign-off.ts';

export interface WorkSessionsDeps {
  store: Store;
  attachmentsDir: string;
  /** Local clock, unix seconds. */
  now: () => number;
  /** When the technician acts, on the site's clock, with what re-dates it once the site answers (server-clock.ts). */
  clock: Pick<ServerClock, 'stamp'>;
  /** Where each action is queued, in the transaction that applies it. */
  outbox: Pick<Outbox, 'enqueue' | 'amend'>;
  /** The current technician (throws when nobody works now): what they do is recorded under their name. */
  technician: () => { id: number; userid: number };
  /** Whether the current technician may read the guide (a private one: admins and its author). */
  readable: (guideid: number) => boolean;
  onChange: (session: WorkSession) => void;
}

/**
 * Accepts what a technician does in a work session. Each action is checked against the state machine,
 * applied to the local projection and queued in the outbox, with who did it, in ONE transaction: accepted
 * means durable, and it never needs the network. A technician sees and acts in their own sessions only.
 */
export class WorkSessions {
  constructor(private readonly deps: WorkSessionsDeps) {
    ownerFolder(deps.attachmentsDir);
  }

  start(input: StartSessionInput): WorkSession {
    const guide = this.deps.readable(input.guideid) ? this.deps.store.guides.getDetail(input.guideid) : undefined;
    if (!guide)
      throw new AppFailure(
        'not_found',
        'This guide is not stored on this computer: sync it before starting work on it.',
        { guideid: input.guideid },
      );
    if (input.stepid !== undefined && !guide.steps.some((s) => s.stepid === input.stepid)) {
      throw new AppFailure('invalid_input', `Step ${input.stepid} is not a step of "${guide.title}".`);
    }
    const id = randomUUID();
    const stamp = this.deps.clock.stamp();
    const [at, me] = [stamp.at, this.deps.technician()];
    this.deps.store.transaction(() => {
      this.deps.store.sessions.insert({
        id,
        entryid: null,
        guideid: guide.guideid,
        guideRevisionid: guide.revisionid,
        guideTitle: guide.title,
        workorderid: input.workorderid.trim(),
        userid: me.userid,
        technician: me.id,
        status: 'started',
        serverRevisionid: null,
        startedAt: at,
        pausedAt: null,
        pauseSeconds: 0,
        activeStepid: input.stepid ?? guide.steps[0]?.stepid ?? null,
        now: this.deps.now(),
      });
      this.deps.store.guides.pin(guide.guideid, guide.revisionid, pinKey(sessionChain(id)));
      const payload = {
        sessionId: id,
        guideid: guide.guideid,
        workorderid: input.workorderid.trim(),
        ...(input.stepid ? { stepid: input.stepid } : {}),
      };
      this.deps.outbox.enqueue(startAction, payload, {
        chain: sessionChain(id),
        actedAt: at,
        technician: me.id,
        stamp,
      });
    });
    return this.#changed(id);
  }

  transition(sessionId: string, transition: WorkTransition, signOff?: SignOffInput): WorkSession {
    if (signOff && transition !== 'finish')
      throw new AppFailure('invalid_input', 'A sign-off goes with Finish only.', { transition });
    const stamp = this.deps.clock.stamp();
    const me = this.deps.technician();
    this.deps.store.transaction(() => {
      const session = this.#state(sessionId);
      if (transition !== 'assume') this.#stillMine(session);
      const at = this.#after(session, stamp);
      if (!canApply(session.status, transition)) {
        throw new AppFailure(
          'invalid_transition',
          `You can only ${transition} a session that is ${sourceOf(transition)}; this one is ${session.status}.`,
          {
            status: session.status,
            transition,
          },
        );
      }
      if (signOff) this.#signOff(session, signOff, at, stamp);
      const clock = applyClock(session, transition, at);
      this.deps.store.sessions.update(
        sessionId,
        { ...clock, ...(transition === 'assume' ? { userid: me.userid } : {}) },
        this.deps.now(),
      );
      if (isEnded(clock.status)) this.deps.store.guides.unpin(pinKey(sessionChain(sessionId)));
      this.deps.outbox.enqueue(
        TRANSITION_ACTIONS[transition],
        { sessionId },
        { chain: sessionChain(sessionId), actedAt: at, technician: me.id, stamp },
      );
    });
    return this.#changed(sessionId);
  }

  saveStepData(input: SaveStepDataInput): WorkSession {
    const stamp = this.deps.clock.stamp();
    this.deps.store.transaction(() => {
      const session = this.#editable(input.sessionId);
      const fields = this.#fieldsOfStep(session, input.stepid);
      const checked = input.values.map(({ fieldGuid, value }) => {
        const field = fields.get(fieldGuid);
        if (!field)
          throw new AppFailure('invalid_input', `Field ${fieldGuid} is not on the form of step ${input.stepid}.`, {
            fieldGuid,
          });
        const result = checkFieldValue(field, value);
        if (!result.ok) throw new AppFailure('invalid_input', result.message, { fieldGuid });
        return { field, value: result.value };
      });
      const values = checked.map(({ field, value }) => ({ field, value, attachmentId: undefined }));
      queueStepValues(this.deps, session, input.stepid, values, { actedAt: this.#after(session, stamp), stamp });
    });
    return this.#changed(input.sessionId);
  }

  attach(input: AttachFileInput): WorkSession {
    const bytes = Buffer.from(input.dataBase64, 'base64');
    if (bytes.length === 0) throw new AppFailure('invalid_input', 'The file is empty.');
    if (bytes.length > ATTACHMENT_MAX_BYTES)
      throw new AppFailure('invalid_input', `The file is larger than ${ATTACHMENT_MAX_BYTES / 1024 / 1024} MB.`);
    const attachmentId = randomUUID();
    const file = `${attachmentId}${path
      .extname(input.name)
      .toLowerCase()
      .replace(/[^.a-z0-9]/g, '')
      .slice(0, 8)}`;
    // The bytes are on disk (fsync'd) before the transaction that refers to them commits.
    const full = path.join(this.deps.attachmentsDir, file);
    writeOwnerFile(full, bytes, 'wx');
    const handle = fs.openSync(full, 'r');
    fs.fsyncSync(handle);
    fs.closeSync(handle);
    const stamp = this.deps.clock.stamp();
    try {
      this.deps.store.transaction(() => {
        const session = this.#editable(input.sessionId);
        const at = this.#after(session, stamp);
        const field = this.#fieldsOfStep(session, input.stepid).get(input.fieldGuid);
        if (!field || !isMediaField(field.type))
          throw new AppFailure('invalid_input', 'Files can only be attached to Image, Video and Document fields.');
        const safeName =
          path
            .basename(input.name)
            .replace(/[^\w.\- ]+/g, '_')
            .slice(-120) || 'file';
        this.deps.store.sessions.insertAttachment({
          id: attachmentId,
          sessionId: input.sessionId,
          file,
          name: safeName,
          // A name of our own making lets a lost upload be found on the site again.
          uploadName: `fg-${attachmentId}-${safeName}`,
          mime: input.mime,
          bytes: bytes.length,
          now: this.deps.now(),
          technician: session.technician,
        });
        this.deps.outbox.enqueue(
          uploadAction,
          { sessionId: input.sessionId, attachmentId },
          { chain: sessionChain(input.sessionId), actedAt: at, technician: session.technician, stamp },
        );
        const values = [{ field, value: null, attachmentId }];
        queueStepValues(this.deps, session, input.stepid, values, { actedAt: at, stamp });
      });
    } catch (error) {
      fs.rmSync(full, { force: true });
      throw error;
    }
    return this.#changed(input.sessionId);
  }

  /** The current technician's sessions on this computer (of one guide, or all), newest first. */
  list(filter: { guideid?: number }): WorkSession[] {
    return this.deps.store.sessions.list(filter, this.deps.technician().id).map((id) => this.view(id));
  }

  /** One of the current technician's sessions; another's is "no such session" to them. */
  view(sessionId: string): WorkSession {
    const view =
      this.deps.store.sessions.technicianOf(sessionId) === this.deps.technician().id
        ? this.deps.store.sessions.view(sessionId)
        : undefined;
    if (!view) throw new AppFailure('not_found', 'There is no such work session on this computer.', { sessionId });
    return view;
  }

  /** Records the sign-off, and queues it as step data (before the finish) where the form has a field for it. */
  #signOff(
    session: { id: string; technician: number; guideid: number; guideRevisionid: number },
    input: SignOffInput,
    at: number,
    stamp: Stamp,
  ): void {
    const { guides, technicians } = this.deps.store;
    const guide = guides.getRevision(session.guideid, session.guideRevisionid) ?? guides.getDetail(session.guideid);
    const target = guide ? signOffField(guide) : null;
    const me = this.deps.technician();
    const record = makeSignOff(input, technicians.get(me.id)?.username ?? `user ${me.userid}`, at, target);
    if (target) {
      const values = [{ field: target.field, value: signOffText(record), attachmentId: undefined }];
      queueStepValues(this.deps, session, target.stepid, values, { actedAt: at, stamp });
    }
    this.deps.store.sessions.setSignOff(session.id, record);
  }

  /** An action is never timed before the session's previous event (a clock set back mid-session). */
  #after(
    session: { id: string; startedAt: number; pausedAt: number | null; endedAt?: number | null },
    stamp: Stamp,
  ): number {
    return Math.max(
      stamp.at,
      session.startedAt,
      session.pausedAt ?? 0,
      session.endedAt ?? 0,
      this.deps.store.outbox.lastActedAt(chainKey(sessionChain(session.id))) ?? 0,
    );
  }

  /** The form the session shows: its kept revision's, even after the site revised or deleted the guide. */
  #fieldsOfStep(session: { guideid: number; guideRevisionid: number }, stepid: number): Map<string, StepFormField> {
    const { guides } = this.deps.store;
    const kept = guides
      .getRevision(session.guideid, session.guideRevisionid)
      ?.steps.find((s) => s.stepid === stepid)?.form;
    const form = kept ?? guides.formsOfGuide(session.guideid).find((f) => f.stepid === stepid);
    if (!form) throw new AppFailure('invalid_input', `Step ${stepid} has no form on this computer.`, { stepid });
    return new Map(form.fields.map((f) => [f.fieldGuid, f]));
  }

  /** The current technician's session (another's is not found), with their id. */
  #state(sessionId: string) {
    const technician = this.deps.technician().id;
    const session =
      this.deps.store.sessions.technicianOf(sessionId) === technician
        ? this.deps.store.sessions.state(sessionId)
        : undefined;
    if (!session) throw new AppFailure('not_found', 'There is no such work session on this computer.', { sessionId });
    return { ...session, technician };
  }

  /** Taken over on the site by someone else (the replay adopted it): read-only here. */
  #stillMine(session: { userid: number }): void {
    if (session.userid !== this.deps.technician().userid)
      throw new AppFailure(
        'invalid_transition',
        'Another technician took this session over on the site: it is read-only here.',
      );
  }

  #editable(sessionId: string) {
    const session = this.#state(sessionId);
    this.#stillMine(session);
    if (!isEditable(session.status)) {
      throw new AppFailure(
        'invalid_transition',
        `This session is ${session.status}: its forms can no longer be changed.`,
        { status: session.status },
      );
    }
    return session;
  }

  #changed(sessionId: string): WorkSession {
    const view = this.view(sessionId);
    this.deps.onChange(view);
    return view;
  }
}
