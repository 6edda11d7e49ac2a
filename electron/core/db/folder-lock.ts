import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ownerDatabaseFile } from './owner-only.ts';

/**
 * Why Fieldguide cannot start on a data folder: what the shells show as it is (the Electron shell in a
 * dialog, the web shell on its output), never with a stack trace. `folder` is named in the message.
 */
export class StartupError extends Error {
  override readonly name: string = 'StartupError';
  constructor(
    readonly folder: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Another copy of Fieldguide holds the data folder. */
export class FolderInUseError extends StartupError {
  override readonly name = 'FolderInUseError';
  constructor(
    folder: string,
    readonly holder: LockHolder | null,
  ) {
    const who = holder
      ? `process ${holder.pid} on ${holder.host}, running since ${new Date(holder.since).toISOString()}`
      : 'another process';
    super(
      folder,
      `Fieldguide is already running on the data folder ${folder} (${who}). ` +
        'Only one copy may use a data folder at a time, or work would be sent twice: ' +
        'close the other copy, or start this one with another data folder.',
    );
  }
}

export interface LockHolder {
  pid: number;
  host: string;
  since: number;
}

export interface FolderLock {
  release(): void;
}

export const LOCK_FILE = 'fieldguide.lock';
const HOLDER_FILE = 'fieldguide.lock.json';

/**
 * Two starts at the same instant each take a brief shared lock while opening the lock file; waiting
 * this long for the other's lets exactly one of them win instead of both refusing.
 */
const START_RACE_MS = 1000;

/**
 * The lock connections this process holds, for the life of the process whatever refers to them: a
 * connection the garbage collector takes is closed, and its lock let go. The lock was only as long-lived as
 * the object that held it: a process that kept no reference to what it made (a test's child, a shell that
 * dropped its services) lost the lock at a collection, and a second copy then took the lock file (twice in
 * CI, `test/core/data-folder-lock.test.ts`).
 */
const HELD = new Set<Database.Database>();

/**
 * One writer per data folder, for the life of the process. The lock is SQLite's exclusive lock on a
 * small database of its own (`fieldguide.lock`), held in a transaction that is never committed: an
 * OS file lock (fcntl on POSIX, LockFileEx on Windows) that the OS drops when the process ends however it
 * ends (exit, crash, SIGKILL), so a stale lock cannot outlive its holder. SQLite also refuses the lock
 * to a second connection in the same process. The holder's pid and host are written beside it, only to
 * name the holder in the refusal; they prove nothing. It guards the start (the checks and repairs before
 * the database opens); for the rest of the process the database itself is held too (open.ts), so a
 * deleted lock file lets no second copy in.
 */
export function lockDataFolder(folder: string, nativeBinding?: string): FolderLock {
  const file = path.join(folder, LOCK_FILE);
  let db: Database.Database;
  try {
    ownerDatabaseFile(file);
    db = new Database(file, { timeout: START_RACE_MS, ...(nativeBinding ? { nativeBinding } : {}) });
  } catch (error) {
    throw new StartupError(folder, `Fieldguide cannot use the data folder ${folder}: ${describe(error)}.`, {
      cause: error,
    });
  }
  try {
    // No journal file: taking the lock writes nothing, so it is taken on a full disk too.
    db.pragma('journal_mode = MEMORY');
    // The transaction, never committed, holds the lock. Not `locking_mode = EXCLUSIVE`: in that mode a
    // start that loses the race keeps the shared lock it read with while it waits, and two starts at the
    // same instant each wait for the other's until both give up; in the normal mode a lost try lets go
    // of everything before it waits, so one of them wins.
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if (isBusy(error)) throw new FolderInUseError(folder, readHolder(folder));
    throw new StartupError(folder, `Fieldguide cannot lock the data folder ${folder}: ${describe(error)}.`, {
      cause: error,
    });
  }
  const holder: LockHolder = { pid: process.pid, host: os.hostname(), since: Date.now() };
  try {
    fs.writeFileSync(path.join(folder, HOLDER_FILE), JSON.stringify(holder), { mode: 0o600 });
  } catch {
    // Only a name for a refusal: the lock holds without it.
  }
  let held = true;
  HELD.add(db);
  return {
    release() {
      if (!held) return;
      held = false;
      HELD.delete(db);
      try {
        db.exec('ROLLBACK');
      } finally {
        db.close();
      }
    },
  };
}

/** Who holds the folder, as the holder wrote it (for the refusal's words only). */
export function readHolder(folder: string): LockHolder | null {
  try {
    const raw = JSON.parse(fs.readFileSync(path.join(folder, HOLDER_FILE), 'utf8')) as Partial<LockHolder>;
    return typeof raw.pid === 'number' && typeof raw.host === 'string' && typeof raw.since === 'number'
      ? { pid: raw.pid, host: raw.host, since: raw.since }
      : null;
  } catch {
    return null;
  }
}

export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || (typeof code === 'string' && code.startsWith('SQLITE_BUSY_'))
  );
}

/** An OS or SQLite error as a technician can read it: the cause, without a stack. */
export function describe(error: unknown): string {
  const reason = reasonOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return reason ? `${reason} (${message})` : message;
}

/** The cause in plain words alone, when it is one known here (no code, no path of a file it tried); else null. */
export function reasonOf(error: unknown): string | null {
  const code = (error as { code?: unknown }).code;
  const reasons: Record<string, string> = {
    EROFS: 'the folder is on a read-only disk',
    EACCES: 'this user may not write there',
    EPERM: 'this user may not write there',
    ENOSPC: 'the disk is full',
    ENOENT: 'the folder does not exist and could not be made',
    ENOTDIR: 'a file is in the way of the folder',
    SQLITE_READONLY: 'the database is read-only',
    SQLITE_CANTOPEN: 'the file cannot be opened (read-only or missing folder)',
    SQLITE_FULL: 'the disk is full',
  };
  return (typeof code === 'string' ? (reasons[code] ?? reasons[code.replace(/_[A-Z]+$/, '')]) : undefined) ?? null;
}
