import type { ChangesApi } from './changes.ts';
import type { CommentsApi } from './comments.ts';
import type { ConnectionApi } from './connection.ts';
import type { LibraryApi } from './library.ts';
import type { MarksApi } from './marks.ts';
import type { OutboxApi } from './outbox.ts';
import type { QuizApi } from './quiz.ts';
import type { SyncApi } from './sync.ts';
import type { TechniciansApi } from './technicians.ts';
import type { WorklogApi } from './worklog.ts';

/**
 * Everything the renderer may ask of the main process: each feature's slice, joined. The signatures are
 * written here only; beside its body, the core's declaration of each method adds its argument schema and
 * policies (core/methods.ts), and the typecheck holds the two together.
 */
export interface AppApi
  extends
    ConnectionApi,
    TechniciansApi,
    LibraryApi,
    SyncApi,
    WorklogApi,
    OutboxApi,
    QuizApi,
    MarksApi,
    CommentsApi,
    ChangesApi {}

export type AppMethod = keyof AppApi;
