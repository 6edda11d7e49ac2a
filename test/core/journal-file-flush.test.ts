import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { JournalFile, readJournal } from '../../electron/core/db/journal-file.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// The work journal's flush on the thread pool (store.ts settle), on a real file: each answer waits for a
// flush begun after its own records were appended, and a handle is never closed under a flush still out
// (its number could be given to another file, which would be flushed instead).
const folders: { remove: () => void }[] = [];
afterEach(() => folders.splice(0).forEach((folder) => folder.remove()));

function journalFile(): JournalFile {
  const tmp = makeTempDir('journal-flush');
  folders.push(tmp);
  return new JournalFile(path.join(tmp.dir, 'fieldguide.journal'));
}

it('shares the flush out now when nothing was appended since it began, else begins another', async () => {
  const file = journalFile();
  expect(file.flush(), 'nothing appended: nothing to wait for').toBeInstanceOf(Promise);
  file.append([{ n: 1 }]);
  const first = file.flush();
  expect(file.flush(), 'covered by the flush out now').toBe(first);
  file.append([{ n: 2 }]);
  const second = file.flush();
  expect(second, 'appended after it began: a flush of its own').not.toBe(first);
  await Promise.all([first, second]);
  expect(readJournal(file.file)!.records).toEqual([{ n: 1 }, { n: 2 }]);
  file.close();
});

it('closes a handle only once no flush of it is out', async () => {
  const file = journalFile();
  file.append([{ n: 1 }]);
  const flushing = file.flush();
  const closed: number[] = [];
  const closeSync = fs.closeSync;
  fs.closeSync = (fd: number) => {
    closed.push(fd);
    closeSync(fd);
  };
  try {
    file.close();
    expect(closed, 'not while its flush is out').toEqual([]);
    await flushing;
    expect(closed).toHaveLength(1);
  } finally {
    fs.closeSync = closeSync;
  }
});
