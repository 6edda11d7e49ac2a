import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from './tmp.ts';

/**
 * A small disk of its own (a tmpfs this test mounts, root needed): the data folder on it meets ENOSPC as a
 * laptop's full disk makes it, SQLite's log, its shared-memory file and the reserve file included.
 * `mounted` is false where mounting is not permitted: the test skips, saying why.
 */
export interface SmallDisk {
  mounted: boolean;
  /** The disk's mount point. */
  dir: string;
  /** Bytes free on it. */
  free(): number;
  /** Fills it to its last byte with one file (bounded: the disk is small). */
  fill(): void;
  /** Deletes what `fill` wrote: the room the technician frees. */
  empty(): void;
  /** Unmounts it (lazily when a failed test left a file open: never left mounted) and removes its folder. */
  remove(): void;
}

export function smallDisk(prefix: string, sizeMb = 64): SmallDisk {
  const temp = makeTempDir(prefix);
  const dir = path.join(temp.dir, 'disk');
  fs.mkdirSync(dir);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir]).status === 0;
  if (!mounted) console.warn(`${prefix}: skipped, mounting a tmpfs is not permitted here (run the tests as root)`);
  const filler = path.join(dir, 'filler');
  const free = () => {
    const stats = fs.statfsSync(dir);
    return stats.bavail * stats.bsize;
  };
  return {
    mounted,
    dir,
    free,
    fill() {
      const fd = fs.openSync(filler, 'a');
      try {
        for (const size of [1024 * 1024, 4096, 1]) {
          const chunk = Buffer.alloc(size);
          for (let i = 0; i < 70_000; i++) {
            try {
              fs.writeSync(fd, chunk);
            } catch (error) {
              if ((error as { code?: string }).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        fs.closeSync(fd);
      }
      if (free() !== 0) throw new Error(`the small disk ${dir} has ${free()} bytes left after filling`);
    },
    empty() {
      fs.rmSync(filler, { force: true });
    },
    remove() {
      if (mounted && spawnSync('umount', [dir]).status !== 0) execFileSync('umount', ['-l', dir]);
      temp.remove();
    },
  };
}
