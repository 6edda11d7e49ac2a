import type { OutboxAction } from '../../contract.ts';
import type { OutboxRow } from '../db/repos/outbox-repo.ts';
import type { Store } from '../db/store.ts';

const KIND_WORDS: Record<string, string> = {
  start: 'Start',
  pause: 'Pause',
  resume: 'Resume',
  suspend: 'Suspend (hand over)',
  assume: 'Take over',
  finish: 'Finish',
  cancel: 'Cancel',
  upload: 'Upload an attached file',
  quizAttempt: 'Send a quiz attempt',
};

/** Every waiting action of one technician, in their words, oldest first. */
export function outboxActions(store: Store, technician: number): OutboxAction[] {
  // Step data is named by the step's number in the guide the session follows, not by its id.
  const numbers = new Map<string, Map<number, number>>();
  const stepNumber = (sessionId: string, stepid: number): number | undefined => {
    if (!numbers.has(sessionId)) {
      const state = store.sessions.state(sessionId);
      const guide = state
        ? (store.guides.getRevision(state.guideid, state.guideRevisionid) ?? store.guides.getDetail(state.guideid))
        : undefined;
      numbers.set(sessionId, new Map((guide?.steps ?? []).map((step, index) => [step.stepid, index + 1])));
    }
    return numbers.get(sessionId)!.get(stepid);
  };
  return store.outbox.all(technician).map((row) => describe(row, stepNumber));
}

function describe(row: OutboxRow, stepNumber: (sessionId: string, stepid: number) => number | undefined): OutboxAction {
  let summary = KIND_WORDS[row.kind] ?? row.kind;
  if (row.kind === 'stepData') {
    try {
      const payload = JSON.parse(row.payload) as { stepid?: number; fields?: unknown[] };
      const number = payload.stepid === undefined ? undefined : stepNumber(row.chain, payload.stepid);
      summary =
        `Save step ${number ?? '?'} (${payload.fields?.length ?? 0} ` +
        `field${payload.fields?.length === 1 ? '' : 's'})`;
    } catch {
      summary = 'Save step data (unreadable)';
    }
  }
  return {
    id: row.id,
    sessionId: row.chain,
    kind: row.kind as OutboxAction['kind'],
    summary,
    actedAt: row.actedAt,
    state: row.state,
    stuck: row.state === 'failed' && row.nextAttemptAt < 0,
    attempts: row.attempts,
    nextAttemptAt: row.state === 'pending' && row.nextAttemptAt > 0 ? Math.ceil(row.nextAttemptAt / 1000) : null,
    error: row.lastError,
  };
}
