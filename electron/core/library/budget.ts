import type { PictureQuality } from '../../contract.ts';
import type { MediaRepo } from '../db/repos/media-repo.ts';
import type { MediaStore } from './media-store.ts';

/**
 * Evicts media no stored guide needs at the chosen picture quality, least recently used first, while the
 * store holds `budgetBytes` or more, counting `incoming` bytes about to be stored. Answers false when it
 * cannot get under the budget (what is left, the guides need).
 */
export async function makeRoom(
  store: { media: MediaRepo; mediaStore: MediaStore; budgetBytes: number; quality: PictureQuality },
  usage: { bytes: number } = { bytes: store.media.usage().bytes },
  incoming = 0,
): Promise<boolean> {
  while (usage.bytes + incoming >= store.budgetBytes) {
    const victims = store.media.evictable(20, store.quality);
    if (victims.length === 0) return false;
    for (const victim of victims) {
      // One at a time: a batch evicted whole would take more recently used media than the budget needs.
      if (usage.bytes + incoming < store.budgetBytes) break;
      const { fileStillUsed } = store.media.forget(victim.url);
      if (!fileStillUsed) await store.mediaStore.remove(victim.file);
      usage.bytes -= victim.bytes;
    }
  }
  return true;
}
