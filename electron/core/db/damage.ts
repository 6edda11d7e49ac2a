import fs from 'node:fs';
import Database from 'better-sqlite3';
import { isBusy } from './folder-lock.ts';
import { missingLog, readLog, type IndexReading } from './wal-check.ts';

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const WAL_HEADER_BYTES = 32;

/**
 * What a look at the files found: `damaged` (set aside and salvaged), or `log`: the write-ahead log
 * holds changes SQLite will not read (frames failing their checksum or salts, a write cut short) or is
 * missing while its index says it held changes. SQLite then opens the database as it was before those
 * changes, without a word: the log is copied aside, and the work journal puts back what it took
 * (work-start.ts).
 */
export interface Inspection {
  kind: 'damaged' | 'log';
  cause: string;
  /** For `log`: whether the log was cut short at its end only (a crash or a full disk while writing). */
  cutShort?: boolean;
}

/** Another process holds the database itself (folder-lock.ts says who). */
export class DatabaseHeldError extends Error {
  override readonly name = 'DatabaseHeldError';
}

/**
 * What is wrong with the database before the app opens it, or null when it looks sound. Run before
 * the first connection: SQLite itself deletes the write-ahead log of an empty database file (and with it
 * every action the log held), and quietly drops what a log holds past its first unreadable frame.
 * `index` is the log's index as read before any connection (a connection rebuilds it).
 */
export function inspectDatabase(
  file: string,
  options: { nativeBinding?: string; thorough?: boolean; index?: IndexReading | null } = {},
): Inspection | null {
  const size = sizeOf(file);
  if (size === null) return null;
  const wal = sizeOf(`${file}-wal`) ?? 0;
  const damaged = (cause: string | null): Inspection | null => (cause === null ? null : { kind: 'damaged', cause });
  if (size === 0) {
    if (wal > WAL_HEADER_BYTES) return damaged(`the database file is empty but its write-ahead log holds ${wal} bytes`);
    return damaged(sizeOf(`${file}-wal`) === null ? 'the database file is empty' : null);
  }
  if (!startsWithHeader(file)) return damaged('the file is not an SQLite database');
  const found = damaged(check(file, options.nativeBinding, options.thorough ?? false));
  if (found) return found;
  const log = readLog(`${file}-wal`);
  const missing = missingLog(options.index ?? null, log);
  if (missing) return { kind: 'log', cause: missing };
  if (log?.problem) return { kind: 'log', cause: log.problem, cutShort: !log.damagedMidway };
  return null;
}

/**
 * SQLite's quick_check (integrity_check when `thorough`: after a damage seen while running), on a
 * read-only connection: it reads every page of every table and index. A read-only connection never
 * checkpoints, so the files are left as found. It is also the first reader of the database: another
 * copy of Fieldguide holding it (db/open.ts locks it) makes it busy at once.
 */
function check(file: string, nativeBinding: string | undefined, thorough: boolean): string | null {
  let db: Database.Database | null = null;
  try {
    db = new Database(file, {
      readonly: true,
      fileMustExist: true,
      timeout: 0,
      ...(nativeBinding ? { nativeBinding } : {}),
    });
    const pragma = thorough ? 'integrity_check' : 'quick_check';
    const rows = db.pragma(`${pragma}(5)`) as Record<string, string>[];
    const problems = rows.map((row) => row[pragma]!).filter((line) => line !== 'ok');
    return problems.length === 0 ? null : `SQLite's check found damage: ${problems.join('; ')}`;
  } catch (error) {
    if (isBusy(error)) throw new DatabaseHeldError(`${file} is in use by another process`, { cause: error });
    if (isDamage(error)) return `SQLite's check could not read it: ${(error as Error).message}`;
    // Not damage (a read-only folder, say): opening it for real says what is wrong.
    return null;
  } finally {
    db?.close();
  }
}

/** SQLite's answer to a damaged or foreign file (or a row failing its checksum: row-guard.ts). */
export function isDamage(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}

function sizeOf(file: string): number | null {
  try {
    return fs.statSync(file).size;
  } catch {
    return null;
  }
}

function startsWithHeader(file: string): boolean {
  const buffer = Buffer.alloc(HEADER.length);
  const fd = fs.openSync(file, 'r');
  try {
    return fs.readSync(fd, buffer, 0, HEADER.length, 0) === HEADER.length && buffer.equals(HEADER);
  } finally {
    fs.closeSync(fd);
  }
}
