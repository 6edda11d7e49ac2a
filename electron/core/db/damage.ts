import fs from 'node:fs';
import Database from 'better-sqlite3';

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

/**
 * What a look at the files found: `damaged` (set aside and salvaged), or `log-cut`: the write-ahead log
 * ends part-way through a page. That is what a crash or a full disk in the middle of a write leaves, and
 * SQLite's own recovery is right for it: it keeps every complete commit and drops the unfinished last
 * one, which had not been confirmed to the technician. Truncation deeper into the log looks the same
 * and cannot be told apart, so the log is copied aside and the technician told, but nothing re-synced.
 */
export interface Inspection {
  kind: 'damaged' | 'log-cut';
  cause: string;
}

/**
 * What is wrong with the database file before SQLite touches it, or null when it looks sound. Run before
 * the first connection: SQLite itself deletes the write-ahead log of an empty database file (and with it
 * every action the log held), and quietly drops a torn log's tail.
 */
export function inspectDatabase(file: string, options: { nativeBinding?: string; thorough?: boolean } = {}): Inspection | null {
  const size = sizeOf(file);
  if (size === null) return null;
  const wal = sizeOf(`${file}-wal`) ?? 0;
  const damaged = (cause: string | null): Inspection | null => (cause === null ? null : { kind: 'damaged', cause });
  if (size === 0) {
    return damaged(wal > WAL_HEADER_BYTES ? `the database file is empty but its write-ahead log holds ${wal} bytes` : sizeOf(`${file}-wal`) === null ? 'the database file is empty' : null);
  }
  if (!startsWithHeader(file)) return damaged('the file is not an SQLite database');
  const found = damaged(check(file, options.nativeBinding, options.thorough ?? false));
  if (found) return found;
  const torn = tornWal(`${file}-wal`, wal);
  return torn === null ? null : { kind: 'log-cut', cause: torn };
}

/** A log whose length is not a whole number of frames was cut short: what was in its last frames is gone. */
function tornWal(wal: string, size: number): string | null {
  if (size === 0) return null;
  if (size < WAL_HEADER_BYTES) return `the write-ahead log is cut short (${size} bytes)`;
  const header = Buffer.alloc(WAL_HEADER_BYTES);
  const fd = fs.openSync(wal, 'r');
  try {
    fs.readSync(fd, header, 0, WAL_HEADER_BYTES, 0);
  } finally {
    fs.closeSync(fd);
  }
  const magic = header.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return 'the write-ahead log is not a log';
  const pageSize = header.readUInt32BE(8) === 1 ? 65_536 : header.readUInt32BE(8);
  if ((size - WAL_HEADER_BYTES) % (FRAME_HEADER_BYTES + pageSize) !== 0) return `the write-ahead log is cut short (${size} bytes is not a whole number of pages)`;
  return null;
}

/**
 * SQLite's quick_check (integrity_check when `thorough`: after a damage seen while running), on a
 * read-only connection: it reads every page of every table and index. A read-only connection never
 * checkpoints, so the files are left as found.
 */
function check(file: string, nativeBinding: string | undefined, thorough: boolean): string | null {
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    const pragma = thorough ? 'integrity_check' : 'quick_check';
    const rows = db.pragma(`${pragma}(5)`) as Record<string, string>[];
    const problems = rows.map((row) => row[pragma]!).filter((line) => line !== 'ok');
    return problems.length === 0 ? null : `SQLite's check found damage: ${problems.join('; ')}`;
  } catch (error) {
    if (isDamage(error)) return `SQLite's check could not read it: ${(error as Error).message}`;
    // Not damage (a read-only folder, say): opening it for real says what is wrong.
    return null;
  } finally {
    db?.close();
  }
}

/** SQLite's answer to a damaged or foreign file. */
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
