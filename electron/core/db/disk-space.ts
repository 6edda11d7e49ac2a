import fs from 'node:fs';
import path from 'node:path';
import { AppFailure } from '../result.ts';

/** What a technician reads when the disk is full: what happened, that nothing is lost, what to do. */
export const STORAGE_FULL_MESSAGE =
  'The disk is full, so Fieldguide cannot save this. Nothing already saved is lost. ' +
  'Free some space (empty the trash, remove large files, or lower the storage budget in the sync centre), then try again.';

/** SQLite's SQLITE_FULL (and its extended codes) or the OS's ENOSPC/EDQUOT: no room on the disk. */
export function isStorageFull(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_FULL') || code === 'ENOSPC' || code === 'EDQUOT')) return true;
    if (code === 'SQLITE_IOERR_WRITE' || code === 'SQLITE_IOERR_SHMSIZE') return true;
  }
  return false;
}

export function storageFull(error?: unknown): AppFailure {
  return new AppFailure('storage_full', STORAGE_FULL_MESSAGE, undefined, { cause: error });
}

/** Bytes free for this user on the disk that holds `dir`; null when the OS does not say. */
export function freeBytes(dir: string): number | null {
  try {
    const stats = fs.statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}

export const RESERVE_FILE = 'fieldguide.reserve';
/** Room kept for the technician's work on a full disk: a few thousand actions, and SQLite's shared-memory file at start. */
export const RESERVE_FILE_BYTES = 4 * 1024 * 1024;

/**
 * A file of zeros that holds a little of the disk for the technician's work. When the disk is full it is
 * given back, so a full disk still starts the app and still takes work actions; it is made again when
 * there is room. Zeros written, not a sparse file: a sparse file holds nothing.
 */
export class DiskReserve {
  readonly #file: string;

  constructor(folder: string) {
    this.#file = path.join(folder, RESERVE_FILE);
  }

  /** Makes the reserve when missing and the disk has room beyond it; never throws. */
  ensure(): void {
    try {
      if (fs.existsSync(this.#file)) return;
      const free = freeBytes(path.dirname(this.#file));
      if (free !== null && free < RESERVE_FILE_BYTES * 4) return;
      const temp = `${this.#file}.tmp`;
      fs.writeFileSync(temp, Buffer.alloc(RESERVE_FILE_BYTES), { mode: 0o600 });
      fs.renameSync(temp, this.#file);
    } catch {
      try {
        fs.rmSync(`${this.#file}.tmp`, { force: true });
      } catch {
        // nothing to give back
      }
    }
  }

  /** Gives the reserve back to the disk; true when there was one. */
  release(): boolean {
    try {
      fs.unlinkSync(this.#file);
      return true;
    } catch {
      return false;
    }
  }
}
