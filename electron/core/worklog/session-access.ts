import type { StepFormField } from '../../contract.ts';
import type { Stamp } from '../connection/server-clock.ts';
import { chainKey } from '../db/chains.ts';
import type { Store } from '../db/store.ts';
import { AppFailure } from '../result.ts';
import { isEditable } from '../../shared/worklog.ts';
import { sessionChain } from './session-chain.ts';

/**
 * What a technician is told of a session that is not theirs (another's on a shared computer, or none): it does
 * not say whose, nor that it is here (a walk was told there was no such session on this computer, where there was).
 */
export const NOT_YOURS = 'There is no such work session of yours on this computer.';

/** Why nothing more is done in a session the site no longer has (a sync learned it: handed-over-look.ts). */
export const removedOnSite = (): AppFailure =>
  new AppFailure(
    'invalid_transition',
    'This session was removed on the site: it is kept on this computer read-only, and nothing more is sent for it.',
  );

/** A session as each action finds it: the current technician's own, still theirs, still editable, its form. */
export class SessionAccess {
  constructor(private readonly deps: { store: Store; technician: () => { id: number; userid: number } }) {}

  /**
   * When the technician acts in the session now: never before its previous event (a clock set back
   * mid-session). Going on in it answers the time it ran while Fieldguide was closed as work: a pause back
   * in that time could no longer be sent in order after what they do now.
   */
  actingAt(
    session: { id: string; startedAt: number; pausedAt: number | null; endedAt?: number | null },
    stamp: Stamp,
  ): number {
    this.deps.store.sessions.ranUnwatched.set(session.id, null);
    return this.after(session, stamp.at);
  }

  /** The time `at`, or the session's previous event's when that is later. */
  after(
    session: { id: string; startedAt: number; pausedAt: number | null; endedAt?: number | null },
    at: number,
  ): number {
    return Math.max(
      at,
      session.startedAt,
      session.pausedAt ?? 0,
      session.endedAt ?? 0,
      this.deps.store.outbox.lastActedAt(chainKey(sessionChain(session.id))) ?? 0,
    );
  }

  /** The form the session shows: its kept revision's, even after the site revised or deleted the guide. */
  fieldsOfStep(session: { guideid: number; guideRevisionid: number }, stepid: number): Map<string, StepFormField> {
    const { guides } = this.deps.store;
    const kept = guides
      .getRevision(session.guideid, session.guideRevisionid)
      ?.steps.find((s) => s.stepid === stepid)?.form;
    const form = kept ?? guides.formsOfGuide(session.guideid).find((f) => f.stepid === stepid);
    if (!form) throw new AppFailure('invalid_input', `Step ${stepid} has no form on this computer.`, { stepid });
    return new Map(form.fields.map((f) => [f.fieldGuid, f]));
  }

  /** The current technician's session (another's is not found), with their id. */
  state(sessionId: string) {
    const technician = this.deps.technician().id;
    const session =
      this.deps.store.sessions.technicianOf(sessionId) === technician
        ? this.deps.store.sessions.state(sessionId)
        : undefined;
    if (!session) throw new AppFailure('not_found', NOT_YOURS, { sessionId });
    return { ...session, technician };
  }

  /** Removed on the site, or taken over there by someone else (the replay adopted it): read-only here. */
  stillMine(session: { userid: number; removedOnSite: number | null }): void {
    if (session.removedOnSite !== null) throw removedOnSite();
    if (session.userid !== this.deps.technician().userid)
      throw new AppFailure(
        'invalid_transition',
        'Another technician took this session over on the site: it is read-only here.',
      );
  }

  editable(sessionId: string) {
    const session = this.state(sessionId);
    this.stillMine(session);
    if (!isEditable(session.status)) {
      throw new AppFailure(
        'invalid_transition',
        `This session is ${session.status}: its forms can no longer be changed.`,
        { status: session.status },
      );
    }
    return session;
  }
}
