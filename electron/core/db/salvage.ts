import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { DatabaseRepair } from '../../contract.ts';
import { openDatabase } from './open.ts';
import { copyOwnerFile, ownerFolder, writeOwnerFile } from './owner-only.ts';
import { recomputeRowSums } from './row-sums.ts';

/**
 * The technician's tables, parents first (foreign keys hold in the fresh database). The library is not
 * among them: the site gives it again, in a full sync.
 */
const TECHNICIANS_DATA = [
  'technicians',
  'work_sessions',
  'work_values',
  'attachments',
  'outbox',
  'conflicts',
  'quiz_attempts',
  'revision_pins',
  'settings',
] as const;

/** Gaps of at most this many rowids are probed for readable rows past a damaged page. */
const MAX_PROBE = 2 ** 48;

/**
 * Sets the damaged database aside (renamed beside it, never deleted), makes a fresh one in its place and
 * copies into it, row by row, every row of the technician's tables a plain SQLite connection can still
 * read: from the file and its write-ahead log, or from the log alone when the file is empty. What could
 * not be read is named. The library is left out and the sync cursor with it: the next sync is a full one.
 */
export function setAsideAndSalvage(file: string, cause: string, now: number, nativeBinding?: string): DatabaseRepair {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  const aside = `${file}.damaged-${stamp}`;
  for (const suffix of ['', '-wal', '-shm']) {
    if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, aside + suffix);
  }
  const work = `${file}.salvage-${stamp}`;
  ownerFolder(work);
  const report: DatabaseRepair = {
    kind: 'salvaged',
    at: Math.floor(now / 1000),
    cause,
    movedTo: aside,
    recovered: {},
    restored: {},
    unreadable: [],
  };
  const fresh = openDatabase(file, nativeBinding ? { nativeBinding } : {});
  try {
    const source = openCopy(aside, `${work}/copy.sqlite`, nativeBinding);
    if (!source) {
      report.unreadable.push('the whole file');
    } else {
      try {
        for (const table of TECHNICIANS_DATA) copyTable(source, fresh, table, report);
        // A file from before the rows had checksums: its rows are taken as they read (nothing to check
        // them against), not as damaged. Rows that had them keep theirs, so the check of the work finds
        // the ones the damage changed.
        if (!summed(source)) recomputeRowSums(fresh);
      } finally {
        source.close();
      }
    }
  } finally {
    fresh.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
  return report;
}

/**
 * A copy of the damaged files to read from (SQLite writes to a database it opens: the log is replayed,
 * its index rebuilt). An empty file beside a log becomes pages of zeros under that log, so the pages the
 * log holds read as they were, and those it does not hold read as damage.
 */
function openCopy(aside: string, copy: string, nativeBinding?: string): Database.Database | null {
  const size = fs.existsSync(aside) ? fs.statSync(aside).size : 0;
  const wal = fs.existsSync(`${aside}-wal`) ? fs.statSync(`${aside}-wal`).size : 0;
  if (size === 0 && wal === 0) return null;
  if (size > 0) copyOwnerFile(aside, copy);
  else writeOwnerFile(copy, Buffer.alloc(pagesUnderLog(`${aside}-wal`)));
  if (wal > 0) copyOwnerFile(`${aside}-wal`, `${copy}-wal`);
  try {
    const db = new Database(copy, nativeBinding ? { nativeBinding } : {});
    db.pragma('query_only = ON');
    return db;
  } catch {
    return null;
  }
}

/** Bytes of the database the log describes: its page size times the highest page it holds. */
function pagesUnderLog(wal: string): number {
  const log = fs.readFileSync(wal);
  if (log.length < 32) return 0;
  const pageSize = log.readUInt32BE(8) === 1 ? 65_536 : log.readUInt32BE(8);
  if (pageSize < 512 || pageSize > 65_536) return 0;
  let highest = 0;
  for (let at = 32; at + 24 + pageSize <= log.length; at += 24 + pageSize)
    highest = Math.max(highest, log.readUInt32BE(at));
  return highest * pageSize;
}

function copyTable(source: Database.Database, target: Database.Database, table: string, report: DatabaseRepair): void {
  const wanted = columns(target, table);
  let have: Set<string>;
  try {
    have = new Set(columns(source, table));
  } catch {
    report.unreadable.push(table);
    return;
  }
  if (have.size === 0) {
    report.unreadable.push(table);
    return;
  }
  const shared = wanted.filter((column) => have.has(column));
  const list = shared.map((column) => `"${column}"`).join(', ');
  const insert = target.prepare(
    `INSERT OR IGNORE INTO "${table}" (${list}) VALUES (${shared.map(() => '?').join(', ')})`,
  );
  const { rows, damaged } = readRows(source, table, list);
  let [copied, orphans] = [0, 0];
  target.transaction(() => {
    for (const row of rows) {
      // The sync's cursor and its last result belong to the library, which is synced again in full.
      if (table === 'settings' && String(row[shared.indexOf('key')]).startsWith('sync.')) continue;
      try {
        copied += insert.run(...row).changes;
      } catch {
        // A row whose parent could not be read (a value without its session): kept in the file set aside.
        orphans++;
      }
    }
  })();
  report.recovered[table] = copied;
  if (damaged) report.unreadable.push(table);
  if (orphans > 0) report.unreadable.push(`${table} (${orphans} row(s) whose parent could not be read)`);
}

/** Whether the damaged file's rows carry checksums (when its schema cannot be read, no row was copied from it). */
function summed(source: Database.Database): boolean {
  try {
    return columns(source, 'outbox').includes('row_sum');
  } catch {
    return true;
  }
}

function columns(db: Database.Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((row) => row.name);
}

/**
 * Every row that can be read, in rowid order. Past a page that cannot be read, the next readable rowid
 * is found by probing further and further on, then narrowing back (both bounded).
 */
function readRows(db: Database.Database, table: string, list: string): { rows: unknown[][]; damaged: boolean } {
  const from = db.prepare(`SELECT rowid, ${list} FROM "${table}" WHERE rowid >= ? ORDER BY rowid`).raw();
  const first = db.prepare(`SELECT rowid FROM "${table}" WHERE rowid >= ? ORDER BY rowid LIMIT 1`).pluck();
  const readable = (rowid: number): boolean => {
    try {
      first.get(rowid);
      return true;
    } catch {
      return false;
    }
  };
  const rows: unknown[][] = [];
  let damaged = false;
  let next = Number.MIN_SAFE_INTEGER;
  for (let gap = 0; gap < 10_000; gap++) {
    try {
      for (const row of from.iterate(next) as Iterable<unknown[]>) {
        rows.push(row.slice(1));
        next = Number(row[0]) + 1;
      }
      return { rows, damaged };
    } catch {
      damaged = true;
    }
    // Rowids here are positive: past a damaged first page, probing starts at 1.
    let bad = Math.max(next, 0);
    let step = 1;
    while (step < MAX_PROBE && !readable(bad + step)) step *= 2;
    if (step >= MAX_PROBE) return { rows, damaged };
    let good = bad + step;
    if (step > 1) bad += step / 2;
    while (good - bad > 1) {
      const middle = Math.floor((bad + good) / 2);
      if (readable(middle)) good = middle;
      else bad = middle;
    }
    next = good;
  }
  return { rows, damaged };
}
