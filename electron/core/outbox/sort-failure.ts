import { classify, unknownKind, type Failure } from '../api/failure.ts';
import type { OutboxRepo, OutboxRow } from '../db/repos/outbox-repo.ts';
import { isStuck, retryDelayMs } from './backoff.ts';

/** What sorting a failed replay needs of the runner (runner.ts, RunnerDeps). */
export interface FailureSorting {
  outbox: OutboxRepo;
  /** The site refused a technician's token (401): their work waits until they sign in again. */
  refused: (technician: number) => void;
  /** No answer at all: the site is taken for unreachable until it answers again. */
  onNoAnswer?: () => void;
  nowMs: () => number;
  random: () => number;
  log: (message: string) => void;
  /** Actions the site asked to wait (Retry-After): coming back online does not hurry them. */
  askedToWait: Set<number>;
}

/** Sorts a failure: retry later, pause for sign-in, stuck, or fail for good. */
export function sortFailure(deps: FailureSorting, row: OutboxRow, error: unknown, mayHaveLanded: boolean): void {
  const { outbox } = deps;
  const failure = classify(error);
  switch (failure.kind) {
    case 'local': {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      deps.log(`Outbox action ${row.id} (${row.kind}) failed unexpectedly: ${message}`);
      outbox.fail(row.id, `Fieldguide could not send this: ${message}`);
      return;
    }
    case 'signed-out':
      outbox.retryLater(row.id, 0, 'Sign in again to send this.', mayHaveLanded);
      if (row.technician !== null) deps.refused(row.technician);
      return;
    case 'forbidden':
    case 'gone':
    case 'not-offered':
    case 'conflict':
    case 'refused':
      // The site's words for the technician; the request it refused ("POST /work_log") for the log only.
      deps.log(`Outbox action ${row.id} (${row.kind}) refused: ${failure.request}: ${failure.message}`);
      outbox.fail(row.id, failure.message);
      return;
    case 'unreachable':
    case 'timeout':
    case 'busy':
    case 'site-error':
    case 'unexpected':
      return sendLater(deps, row, failure, mayHaveLanded);
    default:
      return unknownKind(failure);
  }
}

type MayPass = Extract<Failure, { kind: 'unreachable' | 'timeout' | 'busy' | 'site-error' | 'unexpected' }>;

/** A failure that may pass: tried again after a backoff, or stuck when the site keeps failing it. */
function sendLater(deps: FailureSorting, row: OutboxRow, failure: MayPass, mayHaveLanded: boolean): void {
  const { outbox } = deps;
  const noAnswer = failure.kind === 'unreachable' || failure.kind === 'timeout';
  const serverError = failure.kind === 'site-error' || (failure.kind === 'busy' && failure.limit === 'overload');
  // No answer, a cut answer, an unreadable 2xx or a 5xx may all follow a change the site committed. Not
  // so when no connection was made (no such host, connection refused: a laptop off the network) or none
  // was tried (the site known away: only a read already sent is ended so): the request never left, and
  // its replay need not look on the site for it first.
  const neverLeft =
    failure.kind === 'unreachable' &&
    (failure.reason === 'dns' || failure.reason === 'refused' || failure.reason === 'unreachable');
  const unknown = mayHaveLanded || serverError || (!neverLeft && (noAnswer || failure.kind === 'unexpected'));
  if (noAnswer) deps.onNoAnswer?.();
  const nowSeconds = Math.floor(deps.nowMs() / 1000);
  const refusals = row.refusals + 1;
  if (serverError && isStuck(refusals, nowSeconds - (row.refusedSince ?? nowSeconds))) {
    // Stuck: shown with the failed ones, with the site's words; a retry still reconciles first.
    deps.askedToWait.delete(row.id);
    outbox.stick(row.id, `The site kept failing (${refusals} times in a row): ${failure.message}`, nowSeconds);
    return;
  }
  // A site error backs off by the site's refusals in a row, not by tries the network swallowed: after a
  // day offline, a blip of 503 is tried again in seconds, not minutes.
  const retryAfter = failure.kind === 'busy' || failure.kind === 'site-error' ? failure.retryAfter : undefined;
  const at = deps.nowMs() + retryDelayMs(serverError ? refusals : row.attempts, deps.random, retryAfter);
  if (retryAfter !== undefined) deps.askedToWait.add(row.id);
  else deps.askedToWait.delete(row.id);
  // The client gave up waiting, or a gateway did: the site may still be applying it (its kind may look first).
  const stillLanding = failure.kind === 'timeout' || (failure.kind === 'site-error' && failure.gateway);
  const refusal = serverError
    ? ({ kind: 'refused', nowSeconds } as const)
    : noAnswer
      ? ({ kind: 'unanswered' } as const)
      : undefined;
  outbox.retryLater(row.id, at, failure.message, unknown, {
    ...(stillLanding ? { landingSince: deps.nowMs() } : {}),
    ...(refusal ? { refusal } : {}),
  });
}

/** Actions shown as stuck that are not stuck by today's rule (an earlier version's marks) go back to waiting. */
export function unstick(outbox: OutboxRepo, nowMs: number): void {
  const nowSeconds = Math.floor(nowMs / 1000);
  for (const row of outbox.stuck()) {
    if (!isStuck(row.refusals, nowSeconds - (row.refusedSince ?? nowSeconds))) outbox.retry(row.id);
  }
}
