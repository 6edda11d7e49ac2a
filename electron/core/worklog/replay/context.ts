import type { z } from 'zod';
import type { UploadEndpoint } from '../../api/user-media-api.ts';
import type { ConflictsRepo, NewConflict } from '../../db/repos/conflicts-repo.ts';
import type { GuidesRepo } from '../../db/repos/guides-repo.ts';
import type { OutboxRow } from '../../db/repos/outbox-repo.ts';
import type { SessionsRepo } from '../../db/repos/sessions-repo.ts';
import { defineAction, type KindHooks } from '../../outbox/action-kind.ts';
import type { ReplayContext, ReplayOutcome } from '../../outbox/replay-context.ts';

export { missingHere, type ReplayOutcome } from '../../outbox/replay-context.ts';

/** What the work log's kinds replay with, beside the outbox's context (registered in index.ts). */
export interface WorklogReplayDeps {
  sessions: SessionsRepo;
  conflicts: ConflictsRepo;
  guides: GuidesRepo;
  attachmentsDir: string;
  /** An attachment whose kept file the work may no longer need (its upload done): looked at once committed. */
  mayLetGo: (attachmentId: string) => void;
  /** Where the site takes uploads, as learned (api/user-media-api.ts); absent: the reference's first. */
  uploads?: UploadEndpoint;
  /** The local clock, unix seconds. */
  now: () => number;
  /** Records a conflict (inside the caller's transaction) and tells the renderer when it is the current one's. */
  addConflict: (conflict: NewConflict) => void;
  /** Changes an open conflict record (inside the caller's transaction) and tells the renderer. */
  amendConflict: (id: number, change: { mine: string | null; theirs: string | null; message: string }) => void;
}

/** What a work-log handler works with: the replay's technician, transport and transaction, and the work log. */
export interface WorklogContext extends ReplayContext, WorklogReplayDeps {
  /** Records a conflict of the technician who did the action. */
  conflict: (conflict: Omit<NewConflict, 'technician'>) => void;
}

export type WorklogHandler<P> = (ctx: WorklogContext, row: OutboxRow, payload: P) => Promise<ReplayOutcome>;

/** A kind of the work log: its handler sees the work log's context, its conflicts recorded as the technician's. */
export function worklogAction<P>(
  name: string,
  schema: z.ZodType<P>,
  handler: WorklogHandler<P>,
  hooks: KindHooks<P, WorklogReplayDeps> = {},
) {
  return defineAction<P, WorklogReplayDeps>(
    name,
    schema,
    (ctx, row, payload) =>
      handler(
        { ...ctx, conflict: (conflict) => ctx.addConflict({ ...conflict, technician: ctx.technician }) },
        row,
        payload,
      ),
    hooks,
  );
}
