import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { DatabaseRepair } from '../../contract.ts';
import { inspectDatabase, isDamage } from './damage.ts';
import { DiskReserve, freeBytes, isStorageFull, RESERVE_FILE_BYTES } from './disk-space.ts';
import { describe, lockDataFolder, StartupError, type FolderLock } from './folder-lock.ts';
import { copyOwnerFile, ownerFolder, repairOwnerModes, writeOwnerFile } from './owner-only.ts';
import { setAsideAndSalvage } from './salvage.ts';
import { Store } from './store.ts';

export const DATABASE_FILE = 'fieldguide.sqlite';
const REPAIR_KEY = 'database.repair';
/** Left by a damage found while running: the next start checks the file whatever it looks like. */
const DAMAGE_MARK = 'fieldguide.sqlite.damaged-at-run-time';

const repairSchema: z.ZodType<DatabaseRepair> = z.object({
  kind: z.enum(['salvaged', 'log-cut']),
  at: z.number(),
  cause: z.string(),
  movedTo: z.string(),
  recovered: z.record(z.string(), z.number()),
  unreadable: z.array(z.string()),
});

export interface OpenedFolder {
  store: Store;
  lock: FolderLock;
  reserve: DiskReserve;
  /** What was recovered when the database was found damaged at this start, else null. */
  repair: DatabaseRepair | null;
}

/**
 * Opens the data folder for this process alone: the folder made (0700) and writable, its lock taken (a
 * second copy is refused, naming the holder), the database checked before SQLite touches it (set aside
 * and salvaged when damaged), then opened. On a full disk the reserve is given back so the app still
 * starts. Every failure is a StartupError naming the folder and the cause.
 */
export function openDataFolder(options: { dataDir: string; picturesFile: string; nativeBinding?: string; log: (message: string) => void; now: () => number }): OpenedFolder {
  const { dataDir, nativeBinding, log } = options;
  writableFolder(dataDir);
  const lock = lockDataFolder(dataDir, nativeBinding);
  const reserve = new DiskReserve(dataDir);
  // A disk full already: the reserve goes back before SQLite needs room for its log and shared-memory files.
  if ((freeBytes(dataDir) ?? Infinity) < RESERVE_FILE_BYTES && reserve.release()) {
    log('The disk is full: Fieldguide gave back its reserve to start and take your work. Free some space.');
  }
  try {
    const file = path.join(dataDir, DATABASE_FILE);
    const mark = path.join(dataDir, DAMAGE_MARK);
    const marked = fs.existsSync(mark);
    const found = inspectDatabase(file, { nativeBinding, thorough: marked });
    let repair: DatabaseRepair | null = null;
    if (found?.kind === 'log-cut') {
      repair = keepCutLog(file, found.cause, options.now());
      log(`The database's write-ahead log was cut short (${found.cause}); SQLite keeps every complete change. A copy of the log is at ${repair.movedTo}.`);
    } else if (found) {
      try {
        repair = setAsideAndSalvage(file, found.cause, options.now(), nativeBinding);
      } catch (error) {
        throw new StartupError(dataDir, `Fieldguide's database in ${dataDir} is damaged (${found.cause}) and could not be repaired: ${describe(error)}. Nothing was deleted.`, { cause: error });
      }
      log(`The database was damaged (${found.cause}); it was moved to ${repair.movedTo} and the technicians' work recovered into a new one.`);
    }
    if (marked) fs.rmSync(mark, { force: true });
    const store = openStore({ ...options, file }, reserve);
    if (repair) store.settings.set(REPAIR_KEY, repair);
    reserve.ensure();
    return { store, lock, reserve, repair };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** A log cut short: a copy kept aside (when the disk has room), SQLite's recovery does the rest. */
function keepCutLog(file: string, cause: string, now: number): DatabaseRepair {
  const copy = `${file}-wal.cut-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
  try {
    copyOwnerFile(`${file}-wal`, copy);
  } catch {
    return { kind: 'log-cut', at: Math.floor(now / 1000), cause, movedTo: '', recovered: {}, unreadable: [] };
  }
  return { kind: 'log-cut', at: Math.floor(now / 1000), cause, movedTo: copy, recovered: {}, unreadable: [] };
}

/** The last repair of the database, for the sync centre. */
export function lastRepair(store: Store): DatabaseRepair | null {
  return store.settings.get(REPAIR_KEY, repairSchema) ?? null;
}

/** A damage SQLite reported while running: said now, checked and repaired at the next start. */
export function markDamaged(dataDir: string, error: unknown): void {
  try {
    writeOwnerFile(path.join(dataDir, DAMAGE_MARK), String((error as Error).message ?? error));
  } catch {
    // the check at start finds it anyway
  }
}

function openStore(options: { file: string; picturesFile: string; nativeBinding?: string; log: (message: string) => void; dataDir: string }, reserve: DiskReserve): Store {
  const open = (): Store => new Store({ file: options.file, picturesFile: options.picturesFile, nativeBinding: options.nativeBinding, log: options.log });
  try {
    return open();
  } catch (error) {
    if (isStorageFull(error) && reserve.release()) {
      options.log('The disk is full: Fieldguide gave back its reserve to start. Free some space.');
      try {
        return open();
      } catch (again) {
        throw cannotOpen(options.dataDir, again);
      }
    }
    if (isDamage(error)) throw new StartupError(options.dataDir, `Fieldguide's database in ${options.dataDir} is damaged and could not be repaired (${describe(error)}). Nothing was deleted.`, { cause: error });
    throw cannotOpen(options.dataDir, error);
  }
}

function cannotOpen(dataDir: string, error: unknown): Error {
  if (error instanceof StartupError || (error as Error).name === 'DatabaseTooNewError') return error as Error;
  return new StartupError(dataDir, `Fieldguide cannot open its data in ${dataDir}: ${describe(error)}.`, { cause: error });
}

/** The folder exists (made 0700), is a folder, and this user may write in it: said with the cause when not. */
function writableFolder(dir: string): void {
  try {
    // A folder this user does not own is left as it is: the write check says whether it can be used.
    ownerFolder(dir);
  } catch (error) {
    throw new StartupError(dir, `Fieldguide cannot make its data folder ${dir}: ${describe(error)}.`, { cause: error });
  }
  const probe = path.join(dir, `.write-check-${process.pid}`);
  try {
    writeOwnerFile(probe, '');
    fs.unlinkSync(probe);
    // Made by an earlier version under the umask (attachments/ and media/ 0755): the owner's only now.
    repairOwnerModes(dir);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOSPC') return;
    throw new StartupError(dir, `Fieldguide cannot write in its data folder ${dir}: ${describe(error)}. Choose a folder this user may write in, or make this one writable.`, { cause: error });
  }
}
