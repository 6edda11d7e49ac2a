import type { ApiTransport } from '../api/transport.ts';
import type { UploadEndpoint } from '../api/user-media-api.ts';
import type { ConflictsRepo, NewConflict } from '../db/repos/conflicts-repo.ts';
import type { GuidesRepo } from '../db/repos/guides-repo.ts';
import type { OutboxRepo, OutboxRow } from '../db/repos/outbox-repo.ts';
import type { QuizzesRepo } from '../db/repos/quizzes-repo.ts';
import type { SessionsRepo } from '../db/repos/sessions-repo.ts';

/** What a replay handler works with. */
export interface ReplayContext {
  /** Runs `fn` in one transaction (Store.transaction). */
  transaction: <T>(fn: () => T) => T;
  sessions: SessionsRepo;
  outbox: OutboxRepo;
  conflicts: ConflictsRepo;
  guides: GuidesRepo;
  quizzes: QuizzesRepo;
  /** The transport of the technician who did the action: their own token, never another's. */
  transport: ApiTransport;
  /** Who did the action (technicians.ts). */
  technician: number;
  attachmentsDir: string;
  /** Where the site takes uploads, as learned (api/user-media-api.ts); absent: the reference's first. */
  uploads?: UploadEndpoint;
  now: () => number;
  /** The local clock in milliseconds: what the outbox's waits are timed by. */
  nowMs: () => number;
  /** Records a conflict of this technician (inside the caller's transaction) and tells the renderer. */
  conflict: (conflict: Omit<NewConflict, 'technician'>) => void;
  /** Changes an open conflict record (inside the caller's transaction) and tells the renderer. */
  amendConflict: (id: number, change: { mine: string | null; theirs: string | null; message: string }) => void;
}

/**
 * How a replay ended:
 * - `done`: the handler removed the action (in the same transaction as its effect);
 * - `again`: the handler rebased the action on the site's newer revision: send it again now;
 * - `failed`: the site refused it for good (shown, with retry and discard);
 * - `wait`: the handler looked and must look again later (a start that may still be landing).
 * Errors thrown (ApiError) are sorted by the runner: retry later, pause for sign-in, or fail.
 */
export type ReplayOutcome =
  | { type: 'done' }
  | { type: 'again' }
  | { type: 'failed'; message: string }
  /** Not sent, nothing learned against it: the handler looks again at `atMs` (local ms), saying why meanwhile. */
  | { type: 'wait'; atMs: number; message: string };

export type Handler<P> = (ctx: ReplayContext, row: OutboxRow, payload: P) => Promise<ReplayOutcome>;

/**
 * An action whose session, file or attempt this computer cannot find: nothing deletes those while an
 * action needs them, so it is damage, and the action is never taken as done (nor sent): it is shown,
 * and the next start puts back from the work journal what it can (db/journal-restore.ts).
 */
export function missingHere(what: string): ReplayOutcome {
  return {
    type: 'failed',
    message:
      `Its ${what} could not be found on this computer, so it was not sent. ` +
      'Restart Fieldguide: it checks its database and puts back what it can.',
  };
}
