import type { AppStatus, NetworkState } from './connection.ts';
import type { OutboxSummary } from './outbox.ts';
import type { QuizAttempt } from './quiz.ts';
import type { SyncProgress, SyncState } from './sync.ts';
import type { ConflictRecord, WorkSession } from './worklog.ts';

// What the main process tells the renderer without being asked.

/** Events pushed from the main process, by name. */
export interface AppEvents {
  status: AppStatus;
  network: NetworkState;
  syncProgress: SyncProgress;
  /** The sync finished (or failed, or was cancelled): the library may have changed. */
  syncState: SyncState;
  outbox: OutboxSummary;
  /** A session changed (locally, or by a replay answer). */
  session: WorkSession;
  conflict: ConflictRecord;
  quizAttempt: QuizAttempt;
}

export type AppEventName = keyof AppEvents;
export type AppEvent = { [K in AppEventName]: { name: K; payload: AppEvents[K] } }[AppEventName];

const eventSet = {
  status: true,
  network: true,
  syncProgress: true,
  syncState: true,
  outbox: true,
  session: true,
  conflict: true,
  quizAttempt: true,
} as const satisfies Record<AppEventName, true>;

export const APP_EVENTS = Object.freeze(Object.keys(eventSet)) as readonly AppEventName[];
