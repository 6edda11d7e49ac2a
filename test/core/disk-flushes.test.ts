import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { slowDiskEnv } from '../helpers/slow-disk.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// What waits for the disk. Each flush (SQLite's commit with synchronous=FULL, the work journal's fdatasync)
// holds the main process until the disk has the data: a millisecond on this machine, 30 to 100 ms on a busy
// laptop disk, and every screen's answer waits behind it. The flushes are counted as the OS is asked for them,
// in a process of its own with a preloaded shim (test/helpers/slow-disk.c); npm run bench measures the waits.
const folders: { remove: () => void }[] = [];
afterEach(() => folders.splice(0).forEach((folder) => folder.remove()));

it('a guide and its pictures open with no flush, nor a quiet sync; work and settings flush on the pool', async () => {
  const tmp = makeTempDir('flushes');
  folders.push(tmp);
  const dataDir = path.join(tmp.dir, 'data');
  const log = path.join(tmp.dir, 'flushes.log');
  const script = path.join(import.meta.dirname, '../helpers/flush-child.ts');
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir, log], {
      // Each flush 50 ms: an answer that did not wait for one would come before it ended.
      env: slowDiskEnv(dataDir, log, 50),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`the child exited ${code}: ${stderr}`)),
    );
  });
  const parsed = JSON.parse(out.trim().split('\n').pop()!) as {
    served: number;
    open: string[];
    start: string[];
    attach: string[];
    first: string[];
    resync: string[];
    away: string[];
    settings: string[];
    opened: string[];
  };
  const { opened, first, served, open, start, attach, resync, away, settings } = parsed;
  // A first start: the migrations of a new data folder wait for the disk once, not once each (25 flushes of
  // the log on the main thread before; the folder's own set-up makes the others).
  const startFlushes = opened.filter((flush) => flush === 'main fieldguide.sqlite-wal');
  expect(startFlushes.length, opened.join(', ')).toBeLessThanOrEqual(4);
  // A first sync: what it stores the site gives again (its own records are flushed on the pool); once it has
  // stored guides, one checkpoint moves them into the database file (the log, then the file, as SQLite does
  // for every checkpoint and a big sync's own every 1,000 pages), and the log begins again (its header): a
  // log lost after a crash takes no guide a session needs (library-log-loss.test.ts). At the sync's end, so
  // that opening the guide after it waits for none (below).
  expect(first.filter((flush) => flush.startsWith('main '))).toEqual([
    'main fieldguide.sqlite-wal',
    'main fieldguide.sqlite',
    'main fieldguide.sqlite-wal',
  ]);
  // The demo's forklift inspection: a picture for each step, and the guide's own.
  expect(served).toBeGreaterThan(10);
  // Reading: nothing the technician did, nothing to flush (when a picture was last shown, the guide opened and
  // its revision read are notes a power cut may take back).
  expect(open).toEqual([]);
  // The technician's start: its commit and the work journal flushed before "started" is said, side by side
  // on the thread pool, the main thread answering the screens meanwhile.
  expect(start).toContain('pool fieldguide.sqlite-wal');
  expect(start).toContain('pool fieldguide.journal');
  expect(start.filter((flush) => flush.startsWith('main '))).toEqual([]);
  const answered = start.indexOf('mark started');
  expect(answered).toBeGreaterThan(start.indexOf('pool fieldguide.sqlite-wal'));
  expect(answered).toBeGreaterThan(start.indexOf('pool fieldguide.journal'));
  // A photo attached: its file flushed before the commit that names it is (both before "attached" is said),
  // all of it on the thread pool: a photo held the main thread for two flushes.
  expect(attach.filter((flush) => flush.startsWith('main '))).toEqual([]);
  const photoFlushed = attach.findIndex((flush) => /^pool attachments\/[0-9a-f-]{36}-[0-9a-f]{32}\.png$/.test(flush));
  expect(photoFlushed).toBeGreaterThanOrEqual(0);
  expect(attach.indexOf('pool fieldguide.sqlite-wal')).toBeGreaterThan(photoFlushed);
  expect(attach.indexOf('mark attached')).toBeGreaterThan(attach.indexOf('pool fieldguide.sqlite-wal'));
  expect(attach.indexOf('mark attached')).toBeGreaterThan(attach.indexOf('pool fieldguide.journal'));
  // A sync that brings nothing new holds the main thread for no flush of the database: what it stores the
  // site gives again, and its own record (when it ended) is flushed on the pool.
  expect(resync.filter((flush) => flush.startsWith('main fieldguide.sqlite'))).toEqual([]);
  expect(resync).toContain('pool fieldguide.sqlite-wal');
  // The site gone: the technician's pause is flushed as the start was, and the outbox's try of it, refused by
  // the network, is recorded without a flush (it was marked in flight on the disk before it left).
  expect(away.filter((flush) => flush.startsWith('main '))).toEqual([]);
  expect(away).toContain('pool fieldguide.journal');
  // Settings: each chosen one on the disk before its answer, flushed on the thread pool; the window's size
  // (told again at each start and resize) with no flush of the database. Each held the main thread for one.
  expect(settings.filter((flush) => flush.startsWith('main '))).toEqual([]);
  const display = settings.slice(0, settings.indexOf('mark display'));
  expect(display.filter((flush) => flush.includes('fieldguide.sqlite'))).toEqual([]);
  for (const [before, chosen] of [
    ['display', 'quality'],
    ['quality', 'budget'],
    ['budget', 'scope'],
    ['scope', 'language'],
  ]) {
    const flushed = settings.slice(settings.indexOf(`mark ${before}`), settings.indexOf(`mark ${chosen}`));
    expect(flushed, chosen).toContain('pool fieldguide.sqlite-wal');
  }
}, 60_000);
