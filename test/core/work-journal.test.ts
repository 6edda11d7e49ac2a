import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readWorkJournal } from '../../electron/core/db/journal-rows.ts';
import { openConnection, type Db } from '../../electron/core/db/open.ts';
import { OutboxRepo } from '../../electron/core/db/repos/outbox-repo.ts';
import { WorkKinds } from '../../electron/core/db/repos/work-kinds.ts';
import { DAMAGED_ACTION, RowGuard } from '../../electron/core/db/row-guard.ts';
import { WorkJournal } from '../../electron/core/db/work-journal.ts';
import { JOURNAL_FILE, openWork } from '../../electron/core/db/work-start.ts';
import { TRANSITION_ACTIONS } from '../../electron/core/worklog/replay/transition.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// The work journal and the rows' checksums while the app runs (issue 24), on a real database file: a
// row changed under the connection is found when it is read and put back from the journal, and the
// journal keeps itself small without losing any row's last state.
let tmp: ReturnType<typeof makeTempDir>;
let db: Db;
let logs: string[];

beforeEach(() => {
  tmp = makeTempDir('work-journal');
  logs = [];
  db = openConnection(path.join(tmp.dir, 'fieldguide.sqlite'));
  openWork(db, path.join(tmp.dir, 'fieldguide.sqlite'), { regression: null, salvaged: false }, (m) => logs.push(m));
  db.prepare("INSERT INTO technicians (id, site, userid, username) VALUES (1, 'demo', 7, 'Sam Okafor')").run();
});
afterEach(() => {
  db.close();
  tmp.remove();
});

/** A journal on the test's database, written anew, and the outbox read through its guard. */
function journaled(install: boolean, compactBytes?: number): { journal: WorkJournal; outbox: OutboxRepo } {
  const journal = new WorkJournal(db, path.join(tmp.dir, JOURNAL_FILE), (m) => logs.push(m), compactBytes);
  if (install) journal.install();
  journal.snapshot();
  return { journal, outbox: new OutboxRepo(db, new RowGuard(db, journal, (m) => logs.push(m)), new WorkKinds()) };
}

const pause = (outbox: OutboxRepo, chain: string, at: number): number =>
  outbox.add(TRANSITION_ACTIONS.pause, { sessionId: chain }, { chain, actedAt: at, now: at, technician: 1 });

/** What a page changed on the disk does to a row: its content changes, its checksum does not follow. */
function changeBehindItsBack(sql: string, ...args: unknown[]): void {
  db.exec('DROP TRIGGER temp.fg_sum_outbox_update; DROP TRIGGER temp.fg_journal_outbox_update');
  db.prepare(sql).run(...args);
}

describe('a row of the work read while the app runs', () => {
  it('is put back from the journal when its checksum fails, and said', () => {
    const { journal, outbox } = journaled(true);
    const id = pause(outbox, 's1', 10);
    journal.sync();
    changeBehindItsBack('UPDATE outbox SET payload = \'{"sessionId":"s9"}\' WHERE id = ?', id);

    expect(outbox.get(id)?.payload).toBe('{"sessionId":"s1"}');
    expect(logs.some((m) => m.includes('put back from the work journal'))).toBe(true);
    // Put back in the database too: read again without a word.
    const said = logs.length;
    expect(outbox.due(100, 8, [1]).map((row) => row.payload)).toEqual(['{"sessionId":"s1"}']);
    expect(logs).toHaveLength(said);
  });

  it('is set aside, failed with the reason, when it is an action the journal does not hold', () => {
    // A journal that never heard of the action (its rows were written before it was added).
    const { outbox } = journaled(false);
    const id = pause(outbox, 's1', 10);
    changeBehindItsBack('UPDATE outbox SET payload = \'{"sessionId":"s9"}\' WHERE id = ?', id);

    expect(outbox.due(100, 8, [1]), 'never sent as it reads').toEqual([]);
    expect(outbox.get(id)).toMatchObject({ state: 'failed', lastError: DAMAGED_ACTION });
  });
});

describe('the journal file', () => {
  it('is written anew from the open work once it grows past its bound, every row keeping its last state', () => {
    const file = path.join(tmp.dir, JOURNAL_FILE);
    const { journal, outbox } = journaled(true, 4096);
    let largest = 0;
    for (let i = 0; i < 300; i++) {
      const id = pause(outbox, `s${i % 5}`, i);
      journal.write();
      // Most actions are sent and leave the outbox; every 50th stays.
      if (i % 50 !== 0) {
        outbox.remove(id);
        journal.write();
      }
      largest = Math.max(largest, fs.statSync(file).size);
    }
    journal.sync();
    expect(largest, 'written anew as it grew').toBeLessThan(4096 + 1024);
    const read = readWorkJournal(file)!;
    expect(read.problem).toBeNull();
    const live = db.prepare('SELECT * FROM outbox ORDER BY id').all() as { id: number }[];
    const named = [...read.rows]
      .filter(([name, row]) => name.startsWith('outbox') && row !== null)
      .map(([, row]) => row);
    expect(named.sort((a, b) => Number(a!.id) - Number(b!.id))).toEqual(live);
    expect(live).toHaveLength(6);
  });
});
