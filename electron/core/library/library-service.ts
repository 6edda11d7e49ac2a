import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type {
  CategoryNode,
  GuideDetail,
  LibraryPage,
  LibraryQuery,
  OfflineScope,
  SearchQuery,
  SearchResults,
  StorageUsage,
  SyncError,
  SyncOutcome,
  SyncProgress,
  SyncState,
} from '../../contract.ts';
import { ApiError, toAppFailure } from '../api/errors.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { Db } from '../db/open.ts';
import { CategoriesRepo } from '../db/repos/categories-repo.ts';
import { GuidesRepo } from '../db/repos/guides-repo.ts';
import { MediaRepo } from '../db/repos/media-repo.ts';
import type { SettingsRepo } from '../db/repos/settings-repo.ts';
import { SyncQueueRepo } from '../db/repos/sync-queue-repo.ts';
import { makeRoom } from './budget.ts';
import { MediaStore, PICTURE_MAX_BYTES, type StoredContent } from './media-store.ts';
import { AppFailure } from '../result.ts';
import { CURSOR_KEY, LAST_SYNC_KEY } from '../sync/context.ts';
import { runSync } from '../sync/engine.ts';
import { DEFAULT_SCOPE, offlineScopeSchema } from './scope.ts';
import { searchSite } from '../api/search-api.ts';

const SCOPE_KEY = 'library.scope';
const BUDGET_KEY = 'library.budgetBytes';
const LAST_ERROR_KEY = 'sync.lastError';
/** A media file as the shells serve it: a picture's bytes or a file's path, with its type and length. */
export type StoredMediaContent = StoredContent & { mime: string; bytes: number };

export const DEFAULT_BUDGET_BYTES = 2 * 1024 ** 3;
const syncErrorSchema = z.object({ message: z.string(), resource: z.string().nullable(), at: z.number() });

export interface LibraryDeps {
  db: Db;
  dbFile: string;
  settings: SettingsRepo;
  mediaDir: string;
  /** The signed-in transport; throws `unauthorized` when nobody is signed in. */
  transport: () => ApiTransport;
  isAdmin: () => boolean;
  online: () => boolean;
  /** Requests made so far by the transport (to report what a sync cost). */
  requestCount: () => number;
  onProgress: (progress: SyncProgress) => void;
  onState: (state: SyncState) => void;
  onNetworkError: () => void;
  log: (message: string) => void;
  now?: () => number;
  concurrency?: { guides: number; media: number };
}

/** The offline library: reading what is stored, and syncing it from the site. */
export class LibraryService {
  readonly guides: GuidesRepo;
  readonly categories: CategoriesRepo;
  readonly media: MediaRepo;
  readonly queue: SyncQueueRepo;
  readonly mediaStore: MediaStore;
  #running: { promise: Promise<SyncOutcome>; controller: AbortController } | null = null;
  #progress: SyncProgress = { phase: 'idle', done: 0, total: 0, bytes: 0, message: null };
  #lastEmit = 0;
  readonly #now: () => number;

  constructor(private readonly deps: LibraryDeps) {
    this.guides = new GuidesRepo(deps.db);
    this.categories = new CategoriesRepo(deps.db);
    this.media = new MediaRepo(deps.db);
    this.queue = new SyncQueueRepo(deps.db);
    this.mediaStore = new MediaStore(deps.mediaDir, deps.db, deps.log);
    this.mediaStore.clearPartial();
    if (this.mediaStore.picturesRecreated) {
      const requeued = this.media.requeueMissingPictures(PICTURE_MAX_BYTES);
      if (requeued > 0) deps.log(`${requeued} stored picture(s) were missing; they download again at the next sync.`);
    }
    this.#now = deps.now ?? (() => Math.floor(Date.now() / 1000));
  }

  list(query: LibraryQuery): LibraryPage {
    const categories = query.category ? this.categories.withDescendants(query.category) : null;
    return this.guides.list(query, categories);
  }

  categoryTree(): CategoryNode[] {
    return this.categories.tree();
  }

  guide(guideid: number, revisionid?: number): GuideDetail {
    const detail = (revisionid !== undefined ? this.guides.getRevision(guideid, revisionid) : undefined) ?? this.guides.getDetail(guideid);
    if (detail) return detail;
    const summary = this.guides.getListItem(guideid);
    if (summary) {
      throw new AppFailure('not_found', `"${summary.title}" is not stored on this computer yet: sync with it in the offline scope to read it offline.`, {
        guideid,
        offline: 'summary',
      });
    }
    throw new AppFailure('not_found', `There is no guide ${guideid} in the library.`, { guideid });
  }

  async search(query: SearchQuery): Promise<SearchResults> {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const where = query.where ?? 'auto';
    if (where === 'site' || (where === 'auto' && this.deps.online())) {
      try {
        const site = await searchSite(this.deps.transport(), query.text, limit, offset);
        return {
          source: 'site',
          total: site.total,
          items: site.items.map((item) => ({ ...item, offline: this.guides.getListItem(item.guideid)?.offline ?? 'summary' })),
        };
      } catch (error) {
        if (where === 'site' || !(error instanceof ApiError) || !error.transient) {
          throw error instanceof ApiError ? toAppFailure(error) : error;
        }
        this.deps.onNetworkError();
      }
    }
    return { source: 'local', ...this.guides.search(query.text, limit, offset) };
  }

  setScope(scope: OfflineScope): void {
    this.deps.settings.set(SCOPE_KEY, offlineScopeSchema.parse(scope));
  }

  /** Sets the media budget; media no stored guide needs are evicted at once down to it (LRU first). */
  async setBudget(bytes: number): Promise<void> {
    this.deps.settings.set(BUDGET_KEY, bytes);
    await makeRoom({ media: this.media, mediaStore: this.mediaStore, budgetBytes: bytes });
    this.mediaStore.sweep();
  }

  /** Runs a sync, or joins the one running. */
  sync(): Promise<SyncOutcome> {
    if (this.#running) return this.#running.promise;
    const controller = new AbortController();
    const transport = this.deps.transport();
    const before = this.deps.requestCount();
    const promise = runSync({
      db: this.deps.db,
      guides: this.guides,
      categories: this.categories,
      media: this.media,
      queue: this.queue,
      settings: this.deps.settings,
      mediaStore: this.mediaStore,
      transport,
      includePrivate: this.deps.isAdmin(),
      scope: this.scope(),
      budgetBytes: this.budget(),
      concurrency: this.deps.concurrency ?? { guides: 6, media: 4 },
      signal: controller.signal,
      now: this.#now,
      progress: (phase, done, total, bytes) => this.#report({ phase, done, total, bytes: bytes ?? this.#progress.bytes, message: null }),
      problem: () => {},
    })
      .then(({ networkFailed, ...outcome }): SyncOutcome => {
        if (outcome.error) this.deps.settings.set(LAST_ERROR_KEY, outcome.error);
        else if (outcome.status === 'complete') this.deps.settings.delete(LAST_ERROR_KEY);
        if (networkFailed) this.deps.onNetworkError();
        return { ...outcome, requests: this.deps.requestCount() - before };
      })
      .finally(() => {
        this.#running = null;
        this.deps.onState(this.state());
      });
    this.#running = { promise, controller };
    this.deps.onState(this.state());
    return promise;
  }

  cancel(): void {
    this.#running?.controller.abort();
  }

  /** Resolves once no sync runs (after a cancel, say). */
  async idle(): Promise<void> {
    await this.#running?.promise.catch(() => undefined);
  }

  /** Forgets the library of the previous site: another site's guides never mix with this one's. */
  reset(): void {
    this.cancel();
    const files = this.guides.resetAll();
    for (const file of files) void this.mediaStore.remove(file);
    for (const key of [CURSOR_KEY, LAST_SYNC_KEY, LAST_ERROR_KEY]) this.deps.settings.delete(key);
  }

  get running(): boolean {
    return this.#running !== null;
  }

  state(): SyncState {
    return {
      running: this.#running !== null,
      progress: this.#progress,
      lastSyncAt: this.deps.settings.get(LAST_SYNC_KEY, z.number()) ?? null,
      lastError: (this.deps.settings.get(LAST_ERROR_KEY, syncErrorSchema) as SyncError | undefined) ?? null,
      scope: this.scope(),
      storage: this.storage(),
      guides: this.guides.count(),
    };
  }

  /** The stored content of a media URL, for the shells' media routes; null when not downloaded. */
  resolveMedia(url: string): StoredMediaContent | null {
    const stored = this.media.lookup(url);
    if (!stored) return null;
    const content = this.mediaStore.read(stored.file);
    if (!content) return null;
    let size = -1;
    if (content.data) size = content.data.length;
    else {
      try {
        size = fs.statSync(content.path).size;
      } catch {
        // missing: handled below like a short file
      }
    }
    if (size !== stored.bytes) {
      // Lost or cut short (power loss before the disk had it, a hand deletion): download it again.
      this.media.markFailed(url, `the stored file was ${size < 0 ? 'missing' : `${size} of ${stored.bytes} bytes`}`);
      return null;
    }
    this.media.touch(url, this.#now());
    return { ...content, mime: stored.mime, bytes: stored.bytes };
  }

  scope(): OfflineScope {
    return this.deps.settings.get(SCOPE_KEY, offlineScopeSchema) ?? DEFAULT_SCOPE;
  }

  budget(): number {
    return this.deps.settings.get(BUDGET_KEY, z.number().positive()) ?? DEFAULT_BUDGET_BYTES;
  }

  storage(): StorageUsage {
    const usage = this.media.usage();
    let databaseBytes = 0;
    for (const suffix of ['', '-wal']) {
      try {
        databaseBytes += fs.statSync(`${this.deps.dbFile}${suffix}`).size;
      } catch {
        // no WAL file right now
      }
    }
    return { mediaBytes: usage.bytes, mediaFiles: usage.files, pendingMedia: this.media.pendingCount(), databaseBytes, budgetBytes: this.budget() };
  }

  #report(progress: SyncProgress): void {
    this.#progress = progress;
    const now = Date.now();
    const boundary = progress.done === 0 || progress.done === progress.total || ['done', 'failed', 'cancelled'].includes(progress.phase);
    if (boundary || now - this.#lastEmit >= 100) {
      this.#lastEmit = now;
      this.deps.onProgress(progress);
    }
  }
}

export const mediaDirOf = (dataDir: string): string => path.join(dataDir, 'media');
