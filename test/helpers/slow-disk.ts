import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SOURCE = path.join(import.meta.dirname, 'slow-disk.c');

/**
 * The slow-disk shim (slow-disk.c) built for this machine, once per version of its source: the path to
 * preload. Linux (LD_PRELOAD, /proc/self/fd); it needs a C compiler, as better-sqlite3's own build does.
 */
export function slowDiskLibrary(): string {
  const source = fs.readFileSync(SOURCE);
  const hash = crypto.createHash('sha256').update(source).digest('hex').slice(0, 12);
  const built = path.join(os.tmpdir(), `fieldguide-slow-disk-${hash}.so`);
  if (fs.existsSync(built)) return built;
  const building = `${built}.${process.pid}`;
  try {
    execFileSync('cc', ['-shared', '-fPIC', '-O2', '-o', building, SOURCE, '-ldl'], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(`The slow-disk shim could not be built (a C compiler, cc, is needed): ${String(error)}`);
  }
  fs.renameSync(building, built);
  return built;
}

/**
 * The environment of a child process whose flushes of files under `dir` are each written in `log` (a line
 * of the file's path) and wait `waitMs` first.
 */
export function slowDiskEnv(dir: string, log: string, waitMs = 0): NodeJS.ProcessEnv {
  return {
    ...process.env,
    LD_PRELOAD: slowDiskLibrary(),
    SLOW_DISK_DIR: dir,
    SLOW_DISK_LOG: log,
    SLOW_DISK_MS: String(waitMs),
  };
}

/**
 * The flushes since `from` (bytes of the log), in order: "main <file>" (the main thread waited for it) or
 * "pool <file>" (a thread of libuv's pool did), the file relative to `dir`; and where the log ends.
 */
export function flushesSince(log: string, dir: string, from: number): { flushes: string[]; end: number } {
  if (!fs.existsSync(log)) return { flushes: [], end: 0 };
  const text = fs.readFileSync(log).subarray(from).toString('utf8');
  const flushes = text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [thread, ...file] = line.split(' ');
      return `${thread} ${path.relative(dir, file.join(' '))}`;
    });
  return { flushes, end: from + Buffer.byteLength(text) };
}
