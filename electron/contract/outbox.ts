import type { Result } from './result.ts';
import type { OthersWork } from './technicians.ts';
import type { WorkTransition } from './worklog.ts';

/** The App API of the outbox: what waits to be sent, send now, retry and discard. */

export type OutboxActionKind =
  | 'start'
  | WorkTransition
  | 'stepData'
  | 'upload'
  | 'quizAttempt'
  /** A favourite, and a guide marked done (marks/mark-actions.ts). */
  | 'favorite'
  | 'completed';

export interface OutboxAction {
  id: number;
  sessionId: string;
  kind: OutboxActionKind;
  /** In a technician's words: "Pause", "Save step 3 (2 fields)". */
  summary: string;
  actedAt: number;
  state: 'pending' | 'in_flight' | 'failed';
  /** Failed because the site kept failing (5xx) past the bound, not because it refused it: retry when it is back. */
  stuck: boolean;
  attempts: number;
  nextAttemptAt: number | null;
  error: string | null;
  /**
   * Sent before, and no answer came back (the connection cut, the app stopped): it may be on the site
   * already. The site is asked before it is sent again, so it is never applied twice.
   */
  mayBeOnSite: boolean;
  /**
   * For a refused save of an open session: the step (numbered as the step list shows it) where the value
   * can be changed and saved again, which takes the refused save's place. Null otherwise.
   */
  step: number | null;
}

/** The current technician's work not on the site yet, and, apart, what waits for the others. */
export interface OutboxSummary {
  pending: number;
  /**
   * Of `pending`, those whose last try did not go through (refused for now, no answer, an answer that could
   * not be taken) and that wait for their next: the Sync centre says why under each.
   */
  retrying: number;
  inFlight: number;
  failed: number;
  conflicts: number;
  /** Other technicians with work waiting on this laptop (counts only). */
  others: OthersWork[];
  /** Actions of an earlier version whose maker is not known: kept here, never sent under anyone's name. */
  heldAside: number;
  /**
   * A full (or failing) disk stopped the replay: what waits stays on this computer and goes once there is
   * room (a retry after a while, or Send now). The status chip said "Sending 2…" meanwhile.
   */
  diskFull: boolean;
  /**
   * The disk filled and Fieldguide gave back the room it kept for the technician's work (or found none at
   * its start): work still saves on that room while it lasts. Said until there is room again.
   */
  diskLow: boolean;
  /**
   * That room is used up too: a technician's work (a save, a pause) was refused for room, and work no longer saves
   * (what was typed stays on the screen). Said until there is room again. "Your work still saves" stood meanwhile.
   */
  workRefused: boolean;
  /**
   * The disk cannot be written at all (turned read-only, or failing), not full: nothing more saves or goes until
   * the computer restarts, and freeing space does nothing. It was said as "Disk full… Free some space".
   */
  diskFailed: boolean;
  /**
   * When the next of these actions goes (ms since the epoch), when none is being sent and none goes now: they
   * wait for another try, or behind one that does (the status chip said "Sending 4…" meanwhile). Else null.
   */
  nextTryAt: number | null;
  /** Its place among the summaries the core has made (shared/told.ts): a later one has a greater number. */
  told: number;
}

export interface OutboxView {
  summary: OutboxSummary;
  /** The first of the current technician's actions, oldest first (200), and every failed one after them. */
  actions: OutboxAction[];
  /** How many more of their actions wait after those listed: they go in turn, after them. */
  unlisted: number;
}

export interface OutboxApi {
  getOutbox(): Promise<Result<OutboxView>>;
  /** Replays what can be replayed now; answers when nothing more can go. */
  flushOutbox(): Promise<Result<OutboxSummary>>;
  retryAction(actionId: number): Promise<Result<OutboxView>>;
  discardAction(actionId: number): Promise<Result<OutboxView>>;
}
