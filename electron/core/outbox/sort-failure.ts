import { ApiError } from '../api/errors.ts';
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
  if (!(error instanceof ApiError)) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    deps.log(`Outbox action ${row.id} (${row.kind}) failed unexpectedly: ${message}`);
    outbox.fail(row.id, `Fieldguide could not send this: ${message}`);
    return;
  }
  if (error.kind === 'http' && error.status === 401) {
    outbox.retryLater(row.id, 0, 'Sign in again to send this.', mayHaveLanded);
    if (row.technician !== null) deps.refused(row.technician);
    return;
  }
  // No answer, a cut answer, an unreadable 2xx or a 5xx may all follow a change the site committed. Not
  // so when no connection was made (no such host, connection refused: a laptop off the network) or none
  // was tried (the site known away: only a read already sent is ended so): the request never left, and
  // its replay need not look on the site for it first.
  const neverLeft =
    error.kind === 'network' &&
    (error.reason === 'dns' || error.reason === 'refused' || error.reason === 'unreachable');
  const unknown = mayHaveLanded || (!neverLeft && (error.kind !== 'http' || (error.status ?? 0) >= 500));
  const noAnswer = error.kind === 'network' || error.kind === 'timeout';
  if (noAnswer) deps.onNoAnswer?.();
  const serverError = error.kind === 'http' && (error.status ?? 0) >= 500;
  const nowSeconds = Math.floor(deps.nowMs() / 1000);
  const refusals = row.refusals + 1;
  if (serverError && isStuck(refusals, nowSeconds - (row.refusedSince ?? nowSeconds))) {
    // Stuck: shown with the failed ones, with the site's words; a retry still reconciles first.
    deps.askedToWait.delete(row.id);
    outbox.stick(row.id, `The site kept failing (${refusals} times in a row): ${error.message}`, nowSeconds);
    return;
  }
  if (error.transient || error.kind === 'bad_response') {
    // A site error backs off by the site's refusals in a row, not by tries the network swallowed: after a
    // day offline, a blip of 503 is tried again in seconds, not minutes.
    const at = deps.nowMs() + retryDelayMs(serverError ? refusals : row.attempts, deps.random, error.retryAfter);
    if (error.retryAfter !== undefined) deps.askedToWait.add(row.id);
    else deps.askedToWait.delete(row.id);
    // The client gave up waiting, or a gateway did: the site may still be applying it (its kind may look first).
    const stillLanding = error.kind === 'timeout' || (error.kind === 'http' && error.status === 504);
    const refusal = serverError
      ? ({ kind: 'refused', nowSeconds } as const)
      : noAnswer
        ? ({ kind: 'unanswered' } as const)
        : undefined;
    outbox.retryLater(row.id, at, error.message, unknown, {
      ...(stillLanding ? { landingSince: deps.nowMs() } : {}),
      ...(refusal ? { refusal } : {}),
    });
    return;
  }
  outbox.fail(row.id, `${error.resource}: ${error.message}`);
}

/** Actions shown as stuck that are not stuck by today's rule (an earlier version's marks) go back to waiting. */
export function unstick(outbox: OutboxRepo, nowMs: number): void {
  const nowSeconds = Math.floor(nowMs / 1000);
  for (const row of outbox.stuck()) {
    if (!isStuck(row.refusals, nowSeconds - (row.refusedSince ?? nowSeconds))) outbox.retry(row.id);
  }
}
