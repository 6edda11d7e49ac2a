import { isEditable } from '../../../shared/worklog.ts';
import type { OutboxRow } from '../../db/repos/outbox-repo.ts';
import type { WorklogReplayDeps } from './context.ts';
import type { StepDataPayload } from './payloads.ts';

/** The step's number in the guide the session follows (read once per view: `memo`), or undefined. */
function stepNumber(deps: WorklogReplayDeps, payload: StepDataPayload, memo: Map<string, unknown>): number | undefined {
  const key = `stepNumbers:${payload.sessionId}`;
  if (!memo.has(key)) {
    const state = deps.sessions.state(payload.sessionId);
    const guide = state
      ? (deps.guides.getRevision(state.guideid, state.guideRevisionid) ?? deps.guides.getDetail(state.guideid))
      : undefined;
    memo.set(key, new Map((guide?.steps ?? []).map((step, index) => [step.stepid, index + 1])));
  }
  return (memo.get(key) as Map<number, number>).get(payload.stepid);
}

/**
 * Step data in the outbox view, named by the step's number in the guide the session follows, not by its
 * id. The numbers of a session's guide are read once per view (`memo`).
 */
export function describeStepData(
  deps: WorklogReplayDeps,
  _row: OutboxRow,
  payload: StepDataPayload,
  memo: Map<string, unknown>,
): string {
  const count = payload.fields.length;
  return `Save step ${stepNumber(deps, payload, memo) ?? '?'} (${count} field${count === 1 ? '' : 's'})`;
}

/** Where a refused save can be changed: its step, while the session takes changes (step-values.ts). */
export function stepDataChangeAt(
  deps: WorklogReplayDeps,
  _row: OutboxRow,
  payload: StepDataPayload,
  memo: Map<string, unknown>,
): number | null {
  const status = deps.sessions.state(payload.sessionId)?.status;
  return status !== undefined && isEditable(status) ? (stepNumber(deps, payload, memo) ?? null) : null;
}
