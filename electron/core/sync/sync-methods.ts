import type { AppApi } from '../../contract.ts';
import type { LibraryService } from '../library/library-service.ts';
import { ok } from '../result.ts';
import type { BackgroundSync } from './background.ts';
import type { SyncService } from './sync-service.ts';

/**
 * The App API of the sync: run it, cancel it, its state, and
 * the settings that shape it (scope, budget, picture quality).
 */
export function syncMethods(
  sync: SyncService,
  library: LibraryService,
  background: BackgroundSync,
): Pick<
  AppApi,
  | 'syncNow'
  | 'cancelSync'
  | 'retryGuides'
  | 'getSyncState'
  | 'setOfflineScope'
  | 'keepGuideOffline'
  | 'setStorageBudget'
  | 'getPictureQuality'
  | 'setPictureQuality'
> {
  return {
    syncNow: async () => ok(await sync.sync()),
    cancelSync: async () => {
      sync.cancel();
      return ok(sync.state());
    },
    retryGuides: async (guideids) => ok(await sync.retry(guideids)),
    getSyncState: async () => ok(sync.state()),
    setOfflineScope: async (scope) => {
      library.setScope(scope);
      background.run('scope');
      return ok(sync.state());
    },
    keepGuideOffline: async (guideid) => ok(await sync.keep(guideid)),
    setStorageBudget: async (bytes) => {
      await library.setBudget(bytes);
      return ok(sync.state());
    },
    getPictureQuality: async () => ok(await library.pictures.state()),
    setPictureQuality: async (quality) => {
      library.pictures.set(quality);
      background.run('scope');
      return ok(await library.pictures.state());
    },
  };
}
