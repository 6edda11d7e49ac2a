import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

// vitest's globalSetup of the unit project (vitest.config.ts): its temporary folders (test/helpers/tmp.ts:
// data folders, SQLite files, work journals) go on the machine's memory file system when it has one with
// room, through the workers' TMPDIR (their child processes inherit it). The app's commits wait for the disk
// (synchronous=FULL, the work journal's fsync): about 4 ms each on a plain disk, thousands in each seeded
// fault test, which proves what the network's faults and a killed process do; a killed process's writes
// are in the kernel's cache either way. The tests of a full, read-only or damaged disk mount their own.
// FIELDGUIDE_TEST_TMP=disk keeps the OS's temporary folder.
const MEMORY = '/dev/shm';
/** Room the unit tests' folders may take at once, with a margin. */
const ROOM_BYTES = 2 * 1024 ** 3;

export default function setup(project: TestProject): () => void {
  const base = process.env.FIELDGUIDE_TEST_TMP === 'disk' ? null : memoryFolder();
  if (!base) return () => {};
  const dir = fs.mkdtempSync(path.join(base, `fieldguide-${project.name}-`));
  project.config.env = { ...project.config.env, TMPDIR: dir };
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

/** The memory file system, if it is there, writable and roomy (a container's is often 64 MB). */
function memoryFolder(): string | null {
  try {
    const room = fs.statfsSync(MEMORY);
    fs.accessSync(MEMORY, fs.constants.W_OK);
    return room.bavail * room.bsize >= ROOM_BYTES ? MEMORY : null;
  } catch {
    return null;
  }
}
