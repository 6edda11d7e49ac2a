import fs from 'node:fs';
import path from 'node:path';

/**
 * The data folder is its owner's alone (README, Security): folders 0700, files 0600, whatever the
 * process's umask. Everything the core makes in it is made through these, so the modes are said once.
 */
export const OWNER_FOLDER = 0o700;
export const OWNER_FILE = 0o600;

/** Makes `dir` (and any missing parent) 0700; one that exists is set to 0700. */
export function ownerFolder(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: OWNER_FOLDER });
  chmodIfOurs(dir, OWNER_FOLDER);
}

/** Writes a new file 0600 (`flag` as fs.writeFileSync takes it: `wx` refuses one that exists). */
export function writeOwnerFile(file: string, data: string | Uint8Array, flag = 'w'): void {
  fs.writeFileSync(file, data, { mode: OWNER_FILE, flag });
}

/** A write stream to a new file made 0600. */
export function ownerWriteStream(file: string, flags = 'wx'): fs.WriteStream {
  return fs.createWriteStream(file, { flags, mode: OWNER_FILE });
}

/** A copy made 0600, whatever the source's mode. */
export function copyOwnerFile(from: string, to: string): void {
  fs.copyFileSync(from, to);
  fs.chmodSync(to, OWNER_FILE);
}

/**
 * A file SQLite is about to open, made (or kept) 0600 first: SQLite gives its -wal, -shm and journal
 * files the database file's mode.
 */
export function ownerDatabaseFile(file: string): void {
  if (file === ':memory:' || file === '') return;
  try {
    fs.closeSync(fs.openSync(file, 'a', OWNER_FILE));
    fs.chmodSync(file, OWNER_FILE);
  } catch {
    // Not ours to change (a read-only folder, another owner): opening says what is wrong.
  }
}

/**
 * Sets every folder under `dir` to 0700 and every file to 0600: a data folder an earlier version made
 * with the umask's modes (its `attachments/` and `media/` 0755). Only when its top level shows such a
 * mode, so a start does not walk thousands of files for nothing.
 */
export function repairOwnerModes(dir: string): void {
  const top = fs.readdirSync(dir, { withFileTypes: true });
  const loose = top.some((entry) => {
    const stat = statIfThere(path.join(dir, entry.name));
    return stat !== null && (stat.mode & 0o777) !== (entry.isDirectory() ? OWNER_FOLDER : OWNER_FILE);
  });
  if (!loose) return;
  for (const name of fs.readdirSync(dir, { recursive: true }).map(String)) {
    const full = path.join(dir, name);
    const stat = statIfThere(full);
    if (stat?.isDirectory()) chmodIfOurs(full, OWNER_FOLDER);
    else if (stat?.isFile()) chmodIfOurs(full, OWNER_FILE);
  }
}

/**
 * A file listed a moment ago may be gone: another copy starting on the same folder removes its own write
 * check between our listing and our look (the start race), and that is no reason to refuse the folder.
 */
function statIfThere(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return null;
    throw error;
  }
}

function chmodIfOurs(file: string, mode: number): void {
  try {
    fs.chmodSync(file, mode);
  } catch {
    // A folder this user does not own: whether it can be used is checked where it is used.
  }
}
