import { z } from 'zod';
import type { SyncApi } from '../../contract.ts';
import { LIST_MAX } from '../../shared/limits.ts';
import type { LibraryService } from '../library/library-service.ts';
import { pictureQualitySchema } from '../library/picture-quality.ts';
import { offlineScopeSchema } from '../library/scope.ts';
import { id } from '../method-inputs.ts';
import { defineMethods } from '../methods.ts';
import type { BackgroundSync } from './background.ts';
import type { SyncService } from './sync-service.ts';

export interface SyncMethodDeps {
  sync: SyncService;
  library: LibraryService;
  background: BackgroundSync;
}

/**
 * The App API of the sync: run it, cancel it, its state, and
 * the settings that shape it (scope, budget, picture quality).
 */
export const syncMethods = defineMethods<keyof SyncApi, SyncMethodDeps>({
  syncNow: { input: z.tuple([]), run: ({ sync }) => sync.sync() },
  cancelSync: {
    input: z.tuple([]),
    run: ({ sync }) => {
      sync.cancel();
      return sync.state();
    },
  },
  retryGuides: {
    input: z.union([z.tuple([]), z.tuple([z.array(id).max(LIST_MAX)])]),
    run: ({ sync }, guideids) => sync.retry(guideids),
  },
  getSyncState: { input: z.tuple([]), run: ({ sync }) => sync.state() },
  setOfflineScope: {
    input: z.tuple([offlineScopeSchema]),
    run: async ({ sync, library, background }, scope) => {
      await library.storage.setScope(scope);
      background.run('scope');
      return sync.state();
    },
  },
  keepGuideOffline: {
    input: z.tuple([id]),
    run: async ({ sync, background }, guideid) => {
      const kept = await sync.keep(guideid);
      // Not kept (the site refused, or cut the connection): tried again soon, not at the next schedule.
      if (!kept.stored) background.again();
      return kept;
    },
  },
  setStorageBudget: {
    // Any positive size: too small a budget only fails the sync with its own message. The settings view
    // asks for at least 10 MB, a floor for people, not for the core.
    input: z.tuple([
      z
        .number()
        .int()
        .min(1, 'The budget must be a positive number of bytes')
        .max(2 ** 50),
    ]),
    run: async ({ sync, library }, bytes) => {
      await library.storage.setBudget(bytes);
      return sync.state();
    },
  },
  getPictureQuality: { input: z.tuple([]), run: ({ library }) => library.pictures.state() },
  setPictureQuality: {
    input: z.tuple([pictureQualitySchema]),
    run: async ({ library, background }, quality) => {
      await library.pictures.set(quality);
      background.run('scope');
      return library.pictures.state();
    },
  },
});
