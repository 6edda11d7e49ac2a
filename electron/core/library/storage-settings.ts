import { z } from 'zod';
import type { OfflineScope, PictureQuality, StorageUsage } from '../../contract.ts';
import type { Store } from '../db/store.ts';
import { DiskBudget, makeRoom } from './budget.ts';
import type { MediaStore } from './media-store.ts';
import { DEFAULT_SCOPE, offlineScopeSchema } from './scope.ts';

const SCOPE_KEY = 'library.scope';
const BUDGET_KEY = 'library.budgetBytes';
/** Made once: a zod schema costs more to build than to use. */
const budgetSchema = z.number().positive();

export const DEFAULT_BUDGET_BYTES = 2 * 1024 ** 3;
/** Room on the disk the media never take: the technician's work (and the database's growth) needs it. */
export const DISK_RESERVE_BYTES = 200 * 1024 ** 2;

/**
 * What the library keeps and in how much room: the offline scope, the media budget (as the disk allows
 * it) and what the stored library takes. Settings of the laptop, shared by everyone on it.
 */
export class LibraryStorage {
  readonly disk: DiskBudget;

  constructor(
    private readonly deps: {
      store: Store;
      mediaStore: MediaStore;
      mediaDir: string;
      /** The picture quality kept (picture-quality.ts): what the budget keeps room for. */
      quality: () => PictureQuality;
      reserveBytes?: number;
    },
  ) {
    const { store } = deps;
    this.disk = new DiskBudget(
      deps.mediaDir,
      () => store.media.usage().bytes,
      () => this.budget(),
      deps.reserveBytes ?? DISK_RESERVE_BYTES,
    );
  }

  scope(): OfflineScope {
    return this.deps.store.settings.get(SCOPE_KEY, offlineScopeSchema) ?? DEFAULT_SCOPE;
  }

  /** Whether a scope was ever chosen here (the default keeps everything). */
  scopeChosen(): boolean {
    return this.deps.store.settings.get(SCOPE_KEY, offlineScopeSchema) !== undefined;
  }

  /** Another site: the scope chosen for the previous one (its guide ids name other guides here) goes. */
  forgetScope(): void {
    this.deps.store.settings.delete(SCOPE_KEY);
  }

  /**
   * The scope chosen, on the disk when the promise resolves: the commit's flush waits on the thread pool, not
   * on the main thread (Store.durable), as for the budget and the picture quality.
   */
  async setScope(scope: OfflineScope): Promise<void> {
    const chosen = offlineScopeSchema.parse(scope);
    await this.deps.store.durable(() => this.deps.store.settings.set(SCOPE_KEY, chosen));
  }

  budget(): number {
    return this.deps.store.settings.get(BUDGET_KEY, budgetSchema) ?? DEFAULT_BUDGET_BYTES;
  }

  /** Sets the media budget; media no stored guide needs are evicted at once down to it (LRU first). */
  async setBudget(bytes: number): Promise<void> {
    await this.deps.store.durable(() => this.deps.store.settings.set(BUDGET_KEY, bytes));
    await makeRoom({
      media: this.deps.store.media,
      mediaStore: this.deps.mediaStore,
      budgetBytes: bytes,
      quality: this.deps.quality(),
    });
    this.deps.mediaStore.sweep();
  }

  usage(): StorageUsage {
    const { media } = this.deps.store;
    const usage = media.usage();
    return {
      mediaBytes: usage.bytes,
      mediaFiles: usage.files,
      pendingMedia: media.pendingCount(this.deps.quality()),
      databaseBytes: this.deps.store.bytes(),
      budgetBytes: this.budget(),
      ...this.disk.room(usage.bytes),
    };
  }
}
