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
 * The environment of a child process whose flushes of files under `dir` each wait `waitMs` first and are
 * then written in `log` (slow-disk.c says how).
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

/** Writes `mark <name>` in the log: what the process did, in order with the flushes noted as each ended. */
export function markFlushLog(log: string, name: string): void {
  fs.appendFileSync(log, `mark ${name}\n`);
}

/**
 * The flushes since `from` (bytes of the log), in order of their end: "main <file>" (the main thread
 * waited for it) or "pool <file>" (a thread of libuv's pool did), the file relative to `dir`, with the
 * marks among them (`markFlushLog`); and where the log ends.
 */
export function flushesSince(log: string, dir: string, from: number): { flushes: string[]; end: number } {
  if (!fs.existsSync(log)) return { flushes: [], end: 0 };
  const text = fs.readFileSync(log).subarray(from).toString('utf8');
  const flushes = text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [thread, ...file] = line.split(' ');
      return thread === 'mark' ? line : `${thread} ${path.relative(dir, file.join(' '))}`;
    });
  return { flushes, end: from + Buffer.byteLength(text) };
}
