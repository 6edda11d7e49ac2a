import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { missingLog, readLog, readLogIndex, userVersionOf } from '../../electron/core/db/wal-check.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// The write-ahead log and its index read as bytes (issue 24, items 1 and 2), on logs SQLite wrote: what
// SQLite's own recovery would read of them, and what it would drop without a word.
let tmp: ReturnType<typeof makeTempDir>;
beforeEach(() => (tmp = makeTempDir('wal-check')));
afterEach(() => tmp.remove());

/**
 * A database as a crash of a copy in SQLite's normal locking mode leaves it: 20 commits in its log, none in
 * the file, and the log's index (-shm) beside it. Answers the copy's files.
 */
function crashed(): { file: string; wal: string; shm: string } {
  const live = path.join(tmp.dir, 'live.sqlite');
  const db = new Database(live);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE work (n INTEGER, text TEXT)');
  for (let n = 0; n < 20; n++) db.prepare('INSERT INTO work VALUES (?, ?)').run(n, 'x'.repeat(3000));
  db.pragma('user_version = 7');
  const file = path.join(tmp.dir, 'copy.sqlite');
  for (const suffix of ['', '-wal', '-shm']) fs.copyFileSync(live + suffix, file + suffix);
  db.close();
  return { file, wal: `${file}-wal`, shm: `${file}-shm` };
}

function flip(file: string, at: number): void {
  const bytes = fs.readFileSync(file);
  bytes[at] = bytes[at]! ^ 0x5a;
  fs.writeFileSync(file, bytes);
}

describe('the write-ahead log read as SQLite recovers it', () => {
  it('reads a whole log whole, and the database version from its newest header', () => {
    const { file, wal } = crashed();
    const log = readLog(wal)!;
    expect(log).toMatchObject({ problem: null, droppedFrames: 0, damagedMidway: false });
    expect(log.committedFrames).toBeGreaterThan(20);
    expect(userVersionOf(file, log)).toBe(7);
    // The file itself still says 0: the version is only in the log.
    expect(userVersionOf(file, null)).toBe(0);
  });

  it('names a frame that fails its checksum before the end: the frames after it are dropped', () => {
    const { wal } = crashed();
    const frames = readLog(wal)!.committedFrames;
    const pageSize = 4096;
    flip(wal, 32 + 3 * (24 + pageSize) + 24 + 100);
    const log = readLog(wal)!;
    expect(log).toMatchObject({ committedFrames: 3, damagedMidway: true, droppedFrames: frames - 3 });
    expect(log.problem).toMatch(/damaged: SQLite would stop reading it at frame 4/);
    // SQLite agrees: it reads the first rows only.
    const db = new Database(path.join(tmp.dir, 'copy.sqlite'));
    expect((db.prepare('SELECT count(*) AS n FROM work').get() as { n: number }).n).toBeLessThan(20);
    db.close();
  });

  it('names a damaged header: SQLite would read none of the log', () => {
    const { wal } = crashed();
    flip(wal, 20);
    expect(readLog(wal)!.problem).toMatch(/header is damaged/);
  });

  it('takes a write cut short at the end for what it is: only the unfinished commit is dropped', () => {
    const { wal } = crashed();
    fs.truncateSync(wal, fs.statSync(wal).size - 1000);
    const log = readLog(wal)!;
    expect(log.damagedMidway).toBe(false);
    expect(log.problem).toMatch(/cut short/);
  });
});

describe("the log's index", () => {
  it('says a log is missing when it held changes not in the database file and the log is gone', () => {
    const { wal, shm } = crashed();
    const index = readLogIndex(shm);
    expect(index!.frames).toBeGreaterThan(index!.backfilled);
    fs.rmSync(wal);
    expect(missingLog(index, readLog(wal))).toMatch(/the write-ahead log is missing/);
  });

  it('says nothing is missing when the log is there, or when everything was already in the file', () => {
    const { wal, shm } = crashed();
    expect(missingLog(readLogIndex(shm), readLog(wal))).toBeNull();
    const checkpointed = path.join(tmp.dir, 'checkpointed.sqlite');
    const db = new Database(checkpointed);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    db.pragma('wal_checkpoint(PASSIVE)');
    const index = readLogIndex(`${checkpointed}-shm`);
    db.close();
    expect(index!.frames).toBe(index!.backfilled);
    expect(missingLog(index, null)).toBeNull();
  });
});
