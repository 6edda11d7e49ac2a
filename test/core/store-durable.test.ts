import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { readJournal } from '../../electron/core/db/journal-file.ts';
import { readWorkJournal } from '../../electron/core/db/journal-rows.ts';
import type { Store } from '../../electron/core/db/store.ts';
import { JOURNAL_FILE } from '../../electron/core/db/work-start.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { openTestStore } from '../helpers/store.ts';

// Store.durable (the outbox's in-flight marks): a commit that is on the disk when its promise resolves,
// its wait for the disk (an fdatasync of the write-ahead log) on the thread pool instead of the main
// thread. Checked on a real store file: what is flushed, when, and what a failed flush does.

const tmp = makeTempDir('store-durable');
let store: Store;
let dir: string;
let round = 0;

beforeEach(() => {
  dir = path.join(tmp.dir, String(round++));
  fs.mkdirSync(dir);
  store = openTestStore(dir);
});
afterEach(() => {
  vi.restoreAllMocks();
  store.close();
});

/** The file an open descriptor of this process names (Linux: /proc). */
const fileOf = (fd: number): string => fs.readlinkSync(`/proc/self/fd/${fd}`);

describe('a durable write', () => {
  it('answers once the write-ahead log that holds its commit is flushed, not before', async () => {
    const flushes: { file: string; stored: unknown }[] = [];
    let finish: (() => void) | null = null;
    const real = fs.fdatasync;
    vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, callback: (error: Error | null) => void) => {
      flushes.push({ file: fileOf(fd), stored: store.settings.get('durable.test', z.string()) });
      // Held until the test lets it go: the write must not answer meanwhile.
      finish = () => real(fd, callback);
    }) as typeof fs.fdatasync);
    let answered = false;
    const writing = store
      .durable(() => {
        store.settings.set('durable.test', 'marked');
        return 42;
      })
      .then((value) => {
        answered = true;
        return value;
      });
    expect(flushes, 'one flush of the log, after the commit').toEqual([
      { file: path.join(fs.realpathSync(dir), 'fieldguide.sqlite-wal'), stored: 'marked' },
    ]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered, 'no answer before the disk holds it').toBe(false);
    finish!();
    expect(await writing).toBe(42);
    expect(store.settings.get('durable.test', z.string())).toBe('marked');
  });

  it('a flush the disk refuses fails the write and the disk: nothing more is written', async () => {
    vi.spyOn(fs, 'fdatasync').mockImplementation(((_fd: number, callback: (error: Error | null) => void) => {
      setImmediate(() => callback(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })));
    }) as typeof fs.fdatasync);
    await expect(store.durable(() => store.settings.set('durable.test', 'marked'))).rejects.toMatchObject({
      code: 'EIO',
    });
    // As after a failed FULL commit (store.ts failDisk): the connection takes no more writes.
    expect(() => store.transaction(() => store.settings.set('durable.other', 1))).toThrow(/readonly/i);
  });

  it('cannot run inside another transaction (its flush would come before that commit)', async () => {
    let inside: Promise<void> | null = null;
    store.transaction(() => {
      inside = store.durable(() => store.settings.set('durable.test', 'inside'));
    });
    await expect(inside).rejects.toThrow(/inside another transaction/);
    expect(store.settings.get('durable.test', z.string()), 'nothing of it written').toBeUndefined();
  });

  it('keeps its log handle until a flush still out has ended, then lets it go', async () => {
    const opened = new Set(fs.readdirSync('/proc/self/fd'));
    let finish: (() => void) | null = null;
    const real = fs.fdatasync;
    vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, callback: (error: Error | null) => void) => {
      finish = () => real(fd, callback);
    }) as typeof fs.fdatasync);
    const writing = store.durable(() => store.settings.set('durable.test', 1));
    const logHandles = () =>
      fs
        .readdirSync('/proc/self/fd')
        .filter((fd) => !opened.has(fd))
        .filter((fd) => {
          try {
            return fileOf(Number(fd)).includes('fieldguide.sqlite-wal');
          } catch {
            return false;
          }
        });
    expect(logHandles().length).toBeGreaterThan(0);
    store.close();
    finish!();
    await writing;
    expect(logHandles(), 'released once the flush ended').toEqual([]);
    // afterEach closes again: a second close must be harmless.
    store = { close: () => {} } as unknown as Store;
  });
});

describe("a replaceable write's rows in the work journal", () => {
  /** The journal file as read back: each setting's last value in it, and how many records it holds. */
  const journal = (): { values: Map<string, unknown>; records: number } => {
    const file = path.join(dir, JOURNAL_FILE);
    const state = readWorkJournal(file)!;
    const values = new Map<string, unknown>();
    for (const [key, row] of state.rows) {
      const [table, id] = key.split('\u0000');
      if (table === 'settings' && row) values.set(JSON.parse(id!)[0] as string, row.value);
    }
    return { values, records: readJournal(file)!.records.length };
  };
  const nextTimers = () => new Promise((resolve) => setTimeout(resolve, 5));

  it('go with the next commit that waits for the disk, in one record, or at the end of the turn', async () => {
    const before = journal().records;
    // The site's answer recorded (an action done), then the next action's in-flight mark, as a replay does.
    store.replaceable(() => store.settings.set('journal.answer', 'done'));
    expect(journal().values.has('journal.answer'), 'not written at its own commit').toBe(false);
    await store.durable(() => store.settings.set('journal.mark', 'in flight'));
    expect(journal().values.get('journal.answer')).toBe('"done"');
    expect(journal().values.get('journal.mark')).toBe('"in flight"');
    expect(journal().records - before, 'both in one record').toBe(1);
    // Nothing after it: written once the turn's timers run.
    store.replaceable(() => store.settings.set('journal.alone', 1));
    await nextTimers();
    expect(journal().values.get('journal.alone')).toBe('1');
    expect(journal().records - before).toBe(2);
  });

  it('are written before an answer reaches the technician, and at close', async () => {
    store.replaceable(() => store.settings.set('journal.settled', 1));
    await store.settle();
    expect(journal().values.get('journal.settled')).toBe('1');
    store.replaceable(() => store.settings.set('journal.closed', 2));
    store.close();
    expect(journal().values.get('journal.closed')).toBe('2');
    store = { close: () => {} } as unknown as Store;
  });
});
