import fs from 'node:fs';
import path from 'node:path';
import { freeSomeSpace, writeDownThenRestart } from '../../shared/disk-words.ts';
import { AppFailure } from '../result.ts';

/** What a technician reads when the disk is full: what happened, that nothing is lost, what to do. */
export const STORAGE_FULL_MESSAGE =
  'The disk is full, so Fieldguide cannot save this. Nothing already saved is lost. ' +
  `${freeSomeSpace()}, then try again.`;

/** What a technician reads when the disk cannot be written at all: not full, but read-only or failing. */
export const DISK_FAILED_MESSAGE =
  'This computer cannot write to its disk (it has turned read-only or is failing), so Fieldguide cannot save this, ' +
  `nor anything more until the computer restarts. Everything it said was saved is kept. ${writeDownThenRestart()}`;

/** The error and the errors it was caused by, a few deep. */
function* causes(error: unknown): Generator<unknown> {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) yield e;
}

const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : '';
};

/**
 * SQLite's SQLITE_FULL (and its extended codes) or the OS's ENOSPC/EDQUOT: no room on the disk. (SQLite
 * answers a write the OS refused for room with SQLITE_FULL; growing the pictures database's shared-memory
 * file on a full disk fails with SQLITE_IOERR_SHMSIZE.)
 */
export function isStorageFull(error: unknown): boolean {
  for (const e of causes(error)) {
    const code = codeOf(e);
    if (code.startsWith('SQLITE_FULL') || code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_IOERR_SHMSIZE')
      return true;
  }
  return false;
}

/**
 * A disk that cannot be written: SQLite's I/O errors (a write or a flush the OS refused: a disk remounted
 * read-only after an error, a failing one), its read-only answers (the connection made read-only after
 * such an error: store.ts), and the OS's EROFS and EIO.
 */
export function isDiskFailure(error: unknown): boolean {
  for (const e of causes(error)) {
    const code = codeOf(e);
    if (code === 'SQLITE_IOERR_SHMSIZE') return false;
    if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === 'EIO')
      return true;
  }
  return false;
}

/** What the log says when a full or failing disk holds the outbox's replay. */
export function outboxWaits(error: unknown): string {
  const waits = 'the outbox waits (nothing is lost).';
  if (isStorageFull(error)) return `The disk is full: ${waits} Free some space, then Send now.`;
  return `This computer cannot write to its disk: ${waits}`;
}

/** A disk that is full or cannot be written: what holds every write until it changes. */
export function isStorageTrouble(error: unknown): boolean {
  return isStorageFull(error) || isDiskFailure(error);
}

export function storageFull(error?: unknown): AppFailure {
  return new AppFailure('storage_full', STORAGE_FULL_MESSAGE, undefined, { cause: error });
}

/** The answer to a storage error: full (free some space) or failing (cannot write at all). */
export function storageFailure(error: unknown): AppFailure {
  if (isStorageFull(error)) return storageFull(error);
  return new AppFailure('storage_failed', DISK_FAILED_MESSAGE, undefined, { cause: error });
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
/**
 * Room kept for the technician's work on a full disk: a few thousand actions, and SQLite's shared-memory file at start.
 */
export const RESERVE_FILE_BYTES = 4 * 1024 * 1024;
/**
 * How often a reserve given back is tried again: freeing space is not an event the app hears. A look at the
 * disk's free space is all a try costs while it is still full; at 30 s, "Disk full" stood for 27 s after a walk
 * freed the space, with nothing waiting for Send now to try it sooner.
 */
const RESERVE_CHECK_MS = 5_000;

/**
 * A file of zeros that holds a little of the disk for the technician's work. When the disk is full it is
 * given back, so a full disk still starts the app and still takes work actions; it is made again when
 * there is room. Zeros written, not a sparse file: a sparse file holds nothing.
 */
export class DiskReserve {
  readonly #file: string;
  #gone = false;
  #refusing = false;
  #watch: NodeJS.Timeout | null = null;

  constructor(folder: string) {
    this.#file = path.join(folder, RESERVE_FILE);
  }

  /**
   * Given back to a full disk (or never made: the disk had no room for it) and not made again: the work
   * saves on what it gave back, and the technician is told to free some space before that runs out too.
   */
  get gone(): boolean {
    return this.#gone;
  }

  /**
   * What the reserve gave back is used up too: a technician's work met the full disk and was refused. Their work
   * no longer saves (what they typed stays on the screen) until there is room again: said until the reserve is
   * made again. A later action that happens to go in (SQLite writing over its log's old frames) does not end it.
   */
  get refusing(): boolean {
    return this.#refusing;
  }

  /** A technician's work was refused for room: true when this is new (the screens are told). */
  refused(): boolean {
    if (this.#refusing) return false;
    this.#refusing = true;
    return true;
  }

  /** Makes the reserve when missing and the disk has room beyond it; never throws. */
  ensure(): void {
    try {
      if (fs.existsSync(this.#file)) {
        this.#gone = false;
        this.#refusing = false;
        return;
      }
      const free = freeBytes(path.dirname(this.#file));
      if (free !== null && free < RESERVE_FILE_BYTES * 4) {
        this.#gone = true;
        return;
      }
      const temp = `${this.#file}.tmp`;
      fs.writeFileSync(temp, Buffer.alloc(RESERVE_FILE_BYTES), { mode: 0o600 });
      fs.renameSync(temp, this.#file);
      this.#gone = false;
      this.#refusing = false;
    } catch {
      this.#gone = true;
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
      this.#gone = true;
      return true;
    } catch {
      return false;
    }
  }

  /**
   * While the reserve is gone, tries to make it again every `everyMs` (the technician freeing space is not
   * told to the app): `back` once it is made. One watch at a time; it holds no process open.
   */
  watch(back: () => void, everyMs = RESERVE_CHECK_MS): void {
    if (this.#watch || !this.#gone) return;
    this.#watch = setInterval(() => {
      if (this.again()) back();
    }, everyMs);
    this.#watch.unref();
  }

  /** Tries once to make a gone reserve again (Send now, the watch): true when it was gone and is made now. */
  again(): boolean {
    if (!this.#gone) return false;
    this.ensure();
    if (this.#gone) return false;
    this.stop();
    return true;
  }

  /** Ends the watch (the app closes, or the reserve is back). */
  stop(): void {
    if (this.#watch) clearInterval(this.#watch);
    this.#watch = null;
  }
}
