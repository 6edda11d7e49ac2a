import { currentEntryOf, transitionEntry, type SiteEntry } from '../../api/work-log-api.ts';
import type { WorkTransition } from '../../../contract.ts';
import { canApply, targetOf, TRANSITION_TABLE } from '../../../shared/worklog.ts';
import type { OutboxRow } from '../../db/repos/outbox-repo.ts';
import { adoptRevision, adoptServerState } from './adopt.ts';
import { checkQueuedSaves } from './step-data.ts';
import { missingHere, worklogAction, type WorklogContext, type WorklogHandler } from './context.ts';
import { entryGone } from './entry-gone.ts';
import { followSite, siteTookIt } from './follow-site.ts';
import { transitionPayload } from './payloads.ts';
import { transitionTimed } from './timing.ts';

/** How the outbox view names each. */
const WORDS: Record<WorkTransition, string> = {
  pause: 'Pause',
  resume: 'Resume',
  suspend: 'Suspend (hand over)',
  assume: 'Take over',
  finish: 'Finish',
  cancel: 'Cancel',
};

const VERB: Record<WorkTransition, string> = {
  pause: 'paused',
  resume: 'resumed',
  suspend: 'suspended',
  assume: 'took over',
  finish: 'finished',
  cancel: 'cancelled',
};

/**
 * A transition (DESIGN.md §6): if the site is already in the target state, done; if the transition is
 * still valid from the site's state, rebase on its revision and send again; otherwise the site wins,
 * the technician is told (a conflict record) and the session takes the site's state.
 */
function replayTransition(transition: WorkTransition): WorklogHandler<{ sessionId: string }> {
  return async (ctx, row, payload) => {
    const session = ctx.sessions.state(payload.sessionId);
    if (!session) return missingHere('work session');
    if (session.entryid === null)
      return { type: 'failed', message: 'This session was never created on the site (its start did not go through).' };
    let entry: SiteEntry;
    try {
      entry = await transitionEntry(ctx.transport, session.entryid, transition, session.serverRevisionid, row.actedAt);
    } catch (error) {
      const theirs = currentEntryOf(error, session.entryid);
      // Its entry deleted on the site: removed there, kept here read-only with what was queued (entry-gone.ts).
      if (!theirs && (await entryGone(ctx, row, { ...session, entryid: session.entryid }, error)))
        return { type: 'done' };
      if (!theirs) throw error;
      return resolve(ctx, row, session.id, session.userid, transition, theirs);
    }
    ctx.transaction(() => {
      adoptRevision(ctx, session.id, entry);
      ctx.outbox.remove(row.id);
    });
    return { type: 'done' };
  };
}

async function resolve(
  ctx: WorklogContext,
  row: OutboxRow,
  sessionId: string,
  userid: number,
  transition: WorkTransition,
  theirs: SiteEntry,
) {
  const [actionId, actedAt] = [row.id, row.actedAt];
  if (theirs.status === targetOf(transition) && (transition === 'assume' ? theirs.userid === userid : true)) {
    ctx.transaction(() => {
      checkQueuedSaves(ctx, sessionId, actionId, theirs);
      adoptRevision(ctx, sessionId, theirs);
      // Finished (or cancelled) on both computers: the site's end time is the one that counts.
      if (theirs.endedAt !== null) ctx.sessions.update(sessionId, { endedAt: theirs.endedAt }, ctx.now());
      ctx.outbox.remove(actionId);
    });
    return { type: 'done' } as const;
  }
  const stillOurs = transition === 'assume' || theirs.userid === userid;
  if (canApply(theirs.status, transition) && stillOurs && theirs.revisionid !== null) {
    ctx.transaction(() => {
      // Rebased on what the site has now: what it says of the step data is learned and checked first.
      checkQueuedSaves(ctx, sessionId, actionId, theirs);
      ctx.sessions.update(sessionId, { serverRevisionid: theirs.revisionid }, ctx.now());
    });
    return { type: 'again' } as const;
  }
  // Taken over, cancelled or finished elsewhere: the site's state, one record for the whole session.
  if (siteTookIt(theirs, userid)) {
    await followSite(ctx, row, sessionId, theirs);
    return { type: 'done' } as const;
  }
  ctx.transaction(() => {
    const who = theirs.userid === userid ? 'on the site' : `by another technician (user ${theirs.userid})`;
    ctx.conflict({
      sessionId,
      kind: 'transition',
      fieldGuid: null,
      stepid: null,
      label: `Session ${VERB[transition]}`,
      mine: `${transition} at ${new Date(actedAt * 1000).toISOString()}`,
      theirs: `${theirs.status} ${who}`,
      base: null,
      message:
        `You ${VERB[transition]} this session here, but it is ${theirs.status} ${who}. ` + `The site's state was kept.`,
    });
    adoptServerState(ctx, sessionId, theirs);
    ctx.outbox.remove(actionId);
  });
  return { type: 'done' } as const;
}

const transitionAction = (transition: WorkTransition) =>
  worklogAction(transition, transitionPayload, replayTransition(transition), {
    describe: () => WORDS[transition],
    timed: transitionTimed(transition),
  });

/** A kind per transition, stored by the transition's name. */
export const TRANSITION_ACTIONS = Object.fromEntries(
  Object.keys(TRANSITION_TABLE).map((t) => [t, transitionAction(t as WorkTransition)]),
) as Record<WorkTransition, ReturnType<typeof transitionAction>>;
