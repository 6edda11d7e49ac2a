import type { SignOffInput, WorkTransition } from '../../../contract.ts';
import type { Stamp } from '../../connection/server-clock.ts';
import { UNNAMED_TAKER } from '../../db/repos/session-site-state.ts';
import { AppFailure } from '../../result.ts';
import { applyClock } from '../../../shared/work-clock.ts';
import { canApply, sourceOf } from '../../../shared/worklog.ts';
import { TRANSITION_ACTIONS } from '../replay/transition.ts';
import type { SessionAccess } from '../session-access.ts';
import { sessionChain } from '../session-chain.ts';
import { signOffField } from '../../../shared/field-answers.ts';
import { makeSignOff, signOffText } from '../sign-off.ts';
import { queueStepValues } from '../step-values.ts';
import type { WorkSessionsDeps } from '../work-sessions-deps.ts';

/** Pause, resume, suspend, finish (with its sign-off), cancel or assume, checked against the state machine. */
export function transitionSession(
  deps: WorkSessionsDeps,
  access: SessionAccess,
  sessionId: string,
  transition: WorkTransition,
  signOff?: SignOffInput,
): void {
  if (signOff && transition !== 'finish')
    throw new AppFailure('invalid_input', 'A sign-off goes with Finish only.', { transition });
  const stamp = deps.clock.stamp();
  const me = deps.technician();
  deps.store.transaction(() => {
    const session = access.state(sessionId);
    // Another's session is taken over here by assume; one taken over on the site by someone it did not name
    // is not handed over any more, whatever it last was here (its Take it back went to a colleague's work),
    // nor one removed on the site (its Take it back went to an entry the site no longer has).
    if (transition !== 'assume' || session.userid === UNNAMED_TAKER || session.removedOnSite !== null)
      access.stillMine(session);
    const at = access.actingAt(session, stamp);
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
    if (signOff) recordSignOff(deps, session, signOff, at, stamp);
    const clock = applyClock(session, transition, at);
    deps.store.sessions.update(
      sessionId,
      // Changed here: its clock is this computer's again (adopt.ts followOwnEntry), its nights asked about.
      { ...clock, stateFromSite: null, ...(transition === 'assume' ? { userid: me.userid } : {}) },
      deps.now(),
    );
    // Taken back: a colleague's hand-back (handed-back.ts) is what it was, not said again at its next hand-over.
    if (transition === 'assume') deps.store.sessions.setHandedBack(sessionId, null);
    deps.outbox.enqueue(
      TRANSITION_ACTIONS[transition],
      { sessionId },
      { chain: sessionChain(sessionId), actedAt: at, technician: me.id, stamp },
    );
  });
}

/** Records the sign-off, and queues it as step data (before the finish) where the form has a field for it. */
function recordSignOff(
  deps: WorkSessionsDeps,
  session: { id: string; technician: number; guideid: number; guideRevisionid: number },
  input: SignOffInput,
  at: number,
  stamp: Stamp,
): void {
  const { guides, technicians } = deps.store;
  const guide = guides.getRevision(session.guideid, session.guideRevisionid) ?? guides.getDetail(session.guideid);
  const target = guide ? signOffField(guide) : null;
  const me = deps.technician();
  const record = makeSignOff(input, technicians.get(me.id)?.username ?? `user ${me.userid}`, at, target);
  if (target) {
    const values = [{ field: target.field, value: signOffText(record), attachmentId: undefined }];
    queueStepValues(deps, session, target.stepid, values, { actedAt: at, stamp });
  }
  deps.store.sessions.setSignOff(session.id, record);
}
