import type { PictureQuality } from '../../contract.ts';
import type { MediaRepo } from '../db/repos/media-repo.ts';
import type { MediaStore } from './media-store.ts';
import { freeBytes } from '../db/disk-space.ts';

/**
 * The disk as the budget sees it: its free space, the reserve kept for the technician's work, and the
 * budget the media get when the free space (less the reserve, plus what the media hold already, which
 * they may reuse) is below the technician's budget.
 */
export function diskRoomFor(
  dir: string,
  mediaBytes: number,
  budget: number,
  reserveBytes: number,
): { diskFreeBytes: number | null; reserveBytes: number; budgetLimitedTo: number | null } {
  const free = freeBytes(dir);
  if (free === null) return { diskFreeBytes: null, reserveBytes, budgetLimitedTo: null };
  const fits = Math.max(0, mediaBytes + free - reserveBytes);
  return { diskFreeBytes: free, reserveBytes, budgetLimitedTo: fits < budget ? fits : null };
}

/** The media budget as the disk allows it. */
export class DiskBudget {
  constructor(
    private readonly dir: string,
    private readonly mediaBytes: () => number,
    private readonly budget: () => number,
    readonly reserveBytes: number,
  ) {}

  room(mediaBytes = this.mediaBytes()): ReturnType<typeof diskRoomFor> {
    return diskRoomFor(this.dir, mediaBytes, this.budget(), this.reserveBytes);
  }

  /** The budget the media get now: the technician's, shrunk to what the disk has beyond the reserve. */
  mediaBudget(): number {
    return this.room().budgetLimitedTo ?? this.budget();
  }

  /** Bytes the disk can still take above the reserve (Infinity when the OS does not say). */
  free(): number {
    // Asked before every media file: the disk alone (statfs), not the budget setting too.
    const diskFreeBytes = freeBytes(this.dir);
    return diskFreeBytes === null ? Infinity : diskFreeBytes - this.reserveBytes;
  }
}

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

/** How long a reading of the disk's room serves while it is far from running out, and how far is far. */
const ROOM_READING_MS = 250;
const ROOM_FAR_BYTES = 256 * 1024 * 1024;

/**
 * The disk's room as a download phase asks before every file: read again (statfs) only when the last
 * reading is older than ROOM_READING_MS or the room may be near its end. In between, the last reading less
 * what the phase stored since (`stored`, growing). Near the end every question reads the disk, so a stop
 * for a full disk is always decided on a fresh reading. One statfs per file cost more than a small file's
 * transfer on a fast link.
 */
export function roomGauge(read: () => number, stored: () => number, nowMs: () => number = Date.now): () => number {
  let last: { room: number; stored: number; at: number } | null = null;
  return () => {
    if (last && nowMs() - last.at < ROOM_READING_MS) {
      const estimate = last.room - (stored() - last.stored);
      if (estimate > ROOM_FAR_BYTES) return estimate;
    }
    last = { room: read(), stored: stored(), at: nowMs() };
    return last.room;
  };
}
