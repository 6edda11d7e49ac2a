import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { DatabaseRepair } from '../../contract.ts';
import { DatabaseHeldError, inspectDatabase, isDamage, type Inspection } from './damage.ts';
import { DiskReserve, freeBytes, isStorageFull, RESERVE_FILE_BYTES } from './disk-space.ts';
import {
  describe,
  FolderInUseError,
  lockDataFolder,
  readHolder,
  reasonOf,
  StartupError,
  type FolderLock,
} from './folder-lock.ts';
import { refuseNewer } from './open.ts';
import { ownerFolder, repairOwnerModes, writeOwnerFile } from './owner-only.ts';
import { copyLogAside, repairOf, said } from './repair-report.ts';
import { setAsideAndSalvage } from './salvage.ts';
import { Store } from './store.ts';
import { readLogIndex } from './wal-check.ts';
import type { StartFindings } from './work-start.ts';

export const DATABASE_FILE = 'fieldguide.sqlite';
const REPAIR_KEY = 'database.repair';
/** Left by a damage found while running: the next start checks the file whatever it looks like. */
const DAMAGE_MARK = 'fieldguide.sqlite.damaged-at-run-time';

const repairSchema = z.object({
  kind: z.enum(['salvaged', 'log-cut', 'restored']),
  at: z.number(),
  cause: z.string(),
  movedTo: z.string(),
  recovered: z.record(z.string(), z.number()),
  // Repairs recorded before the work journal put nothing back from it.
  restored: z.record(z.string(), z.number()).default({}),
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
 * second copy is refused, naming the holder), a database of a newer version refused untouched, the
 * database checked before SQLite touches it (set aside and salvaged when damaged; a damaged or missing
 * log copied aside), then opened, its work checked against the work journal and repaired. On a full disk
 * the reserve is given back so the app still starts. Every failure is a StartupError naming the folder
 * and the cause.
 */
export function openDataFolder(options: {
  dataDir: string;
  picturesFile: string;
  nativeBinding?: string;
  log: (message: string) => void;
  now: () => number;
}): OpenedFolder {
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
    refuseNewer(file);
    const found = inspect(file, dataDir, nativeBinding);
    const salvage = (cause: string): DatabaseRepair => {
      try {
        return setAsideAndSalvage(file, cause, options.now(), nativeBinding);
      } catch (error) {
        const why = `is damaged (${cause}) and could not be repaired: ${describe(error)}. Nothing was deleted.`;
        throw new StartupError(dataDir, `Fieldguide's database in ${dataDir} ${why}`, { cause: error });
      }
    };
    let salvaged = found?.kind === 'damaged' ? salvage(found.cause) : null;
    const logCopy = found?.kind === 'log' ? copyLogAside(file, options.now()) : '';
    const regression = found?.kind === 'log' ? found.cause : null;
    const open = () => openStore({ ...options, file, findings: { regression, salvaged: salvaged !== null } }, reserve);
    let store: Store;
    try {
      store = open();
    } catch (error) {
      // Damage SQLite's quick check did not see and the work's check did (an index of the work, say).
      if (salvaged || !isDamage(error)) throw cannotOpen(dataDir, error);
      salvaged = salvage(`the check of the work found damage: ${describe(error)}`);
      store = open();
    }
    const repair = repairOf(found, salvaged, logCopy, store.workCheck, options.now());
    if (repair) {
      store.settings.set(REPAIR_KEY, repair);
      log(said(repair));
    }
    reserve.ensure();
    return { store, lock, reserve, repair };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * The look at the files before the app's connection: the log's index read first (the first SQLite
 * connection rebuilds it), then the checks. A database held by another process (its lock file deleted
 * under it) is that process's: refused, nothing read further.
 */
function inspect(file: string, dataDir: string, nativeBinding: string | undefined): Inspection | null {
  const mark = path.join(dataDir, DAMAGE_MARK);
  const marked = fs.existsSync(mark);
  const index = readLogIndex(`${file}-shm`);
  let found: Inspection | null;
  try {
    found = inspectDatabase(file, { nativeBinding, thorough: marked, index });
  } catch (error) {
    if (error instanceof DatabaseHeldError) throw new FolderInUseError(dataDir, readHolder(dataDir));
    throw error;
  }
  try {
    // The app's connection keeps the log's index in its own memory (open.ts): a -shm file left here
    // (by the check, or by a crash of an earlier version) would only mislead the next start's look.
    fs.rmSync(`${file}-shm`, { force: true });
  } catch {
    // A read-only folder: opening it says so.
  }
  if (marked) fs.rmSync(mark, { force: true });
  return found;
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

function openStore(
  options: {
    file: string;
    picturesFile: string;
    nativeBinding?: string;
    log: (message: string) => void;
    dataDir: string;
    findings: StartFindings;
  },
  reserve: DiskReserve,
): Store {
  const { file, picturesFile, nativeBinding, log, findings } = options;
  const open = (): Store => new Store({ file, picturesFile, nativeBinding, log, findings });
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
    throw error;
  }
}

function cannotOpen(dataDir: string, error: unknown): Error {
  if (error instanceof StartupError || (error as Error).name === 'DatabaseTooNewError') return error as Error;
  if (isDamage(error)) {
    const why = `is damaged and could not be repaired (${describe(error)}). Nothing was deleted.`;
    return new StartupError(dataDir, `Fieldguide's database in ${dataDir} ${why}`, { cause: error });
  }
  return new StartupError(dataDir, `Fieldguide cannot open its data in ${dataDir}: ${describe(error)}.`, {
    cause: error,
  });
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
    // Words a technician can act on: the app offers no other folder, and "EROFS … .write-check-836" told them
    // nothing (a walk, the folder on a disk turned read-only). The OS's own words stay in the cause.
    throw new StartupError(
      dir,
      `Fieldguide cannot write in its data folder ${dir}: ${reasonOf(error) ?? describe(error)}. ` +
        'Your work in it is kept. Restart the computer; if Fieldguide still cannot start, have whoever looks ' +
        'after this computer check its disk and that folder.',
      { cause: error },
    );
  }
}
