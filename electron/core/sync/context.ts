import type { OfflineScope, SyncError, SyncPhase } from '../../contract.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { Db } from '../db/open.ts';
import type { CategoriesRepo } from '../db/repos/categories-repo.ts';
import type { GuidesRepo } from '../db/repos/guides-repo.ts';
import type { MediaRepo } from '../db/repos/media-repo.ts';
import type { SettingsRepo } from '../db/repos/settings-repo.ts';
import type { SyncQueueRepo } from '../db/repos/sync-queue-repo.ts';
import type { MediaStore } from '../library/media-store.ts';

/** What every phase of a sync works with. */
export interface SyncContext {
  db: Db;
  guides: GuidesRepo;
  categories: CategoriesRepo;
  media: MediaRepo;
  queue: SyncQueueRepo;
  settings: SettingsRepo;
  mediaStore: MediaStore;
  transport: ApiTransport;
  includePrivate: boolean;
  scope: OfflineScope;
  budgetBytes: number;
  concurrency: { guides: number; media: number };
  signal: AbortSignal;
  now: () => number;
  progress: (phase: SyncPhase, done: number, total: number, bytes?: number) => void;
  /** Records a failure that does not stop the other items; the sync ends `failed` with the first one. */
  problem: (error: SyncError) => void;
}

export const CURSOR_KEY = 'sync.cursor';
export const LAST_SYNC_KEY = 'sync.lastSyncAt';
