import type { ConnectionApi } from './connection.ts';
import type { LibraryApi } from './library.ts';
import type { OutboxApi } from './outbox.ts';
import type { QuizApi } from './quiz.ts';
import type { SyncApi } from './sync.ts';
import type { TechniciansApi } from './technicians.ts';
import type { WorklogApi } from './worklog.ts';

/**
 * Everything the renderer may ask of the main process: each feature's slice, joined. A feature declares
 * each of its methods once more in the core, with its input schema and policies (core/methods.ts), and
 * the typecheck holds that declaration to the slice here; every list of method names is derived from it.
 */
export interface AppApi extends ConnectionApi, TechniciansApi, LibraryApi, SyncApi, WorklogApi, OutboxApi, QuizApi {}

export type AppMethod = keyof AppApi;
