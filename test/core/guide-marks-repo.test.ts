import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../electron/core/db/migrations/index.ts';
import { migrate } from '../../electron/core/db/open.ts';
import { GuideMarksRepo } from '../../electron/core/db/repos/guide-marks-repo.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// The marks' storage on a real SQLite file: the site's list replaces a technician's marks, but not those
// with a toggle still waiting, and never another technician's.
let tmp: ReturnType<typeof makeTempDir>;
let db: Database.Database;
let marks: GuideMarksRepo;
const [SAM, ANA] = [1, 2];

beforeEach(() => {
  tmp = makeTempDir('guide-marks');
  const file = path.join(tmp.dir, 'marks.sqlite');
  db = new Database(file);
  migrate(db, file, MIGRATIONS);
  db.pragma('foreign_keys = ON');
  const add = db.prepare(
    "INSERT INTO technicians (id, site, userid, username, privileges) VALUES (?, 'https://a.test', ?, ?, '[]')",
  );
  add.run(SAM, 4, 'Sam');
  add.run(ANA, 5, 'Ana');
  marks = new GuideMarksRepo(db);
});
afterEach(() => {
  db.close();
  tmp.remove();
});

const ids = (technician: number, mark: 'favorite' | 'completed' | 'opened') =>
  marks.list(technician, mark).map((row) => row.guideid);

describe("a technician's marks", () => {
  it("take the site's list, keep a waiting toggle as the technician left it, and leave others' alone", () => {
    marks.set(SAM, 'favorite', 1, true, 100);
    marks.set(SAM, 'favorite', 2, true, 100);
    marks.set(SAM, 'favorite', 3, true, 100);
    marks.set(ANA, 'favorite', 2, true, 100);
    // Sam took 3 out offline (waiting) and starred 4 (waiting); the site still lists 3 and not 4, and 5 is new.
    marks.set(SAM, 'favorite', 3, false, 110);
    marks.set(SAM, 'favorite', 4, true, 110);
    const site = [1, 3, 5].map((guideid) => ({ guideid, at: 90 }));
    marks.replaceFromSite(SAM, 'favorite', site, new Set([3, 4]));
    expect(ids(SAM, 'favorite').sort()).toEqual([1, 4, 5]);
    expect(ids(ANA, 'favorite')).toEqual([2]);
    expect(marks.anyonesFavorites()).toEqual([1, 2, 4, 5]);
  });

  it('list the latest first, and recently used by the last opening', () => {
    marks.set(SAM, 'opened', 7, true, 100);
    marks.set(SAM, 'opened', 8, true, 200);
    marks.set(SAM, 'opened', 7, true, 300);
    expect(marks.recentlyUsed(SAM, 10).map((row) => row.guideid)).toEqual([7, 8]);
    marks.set(SAM, 'favorite', 7, true, 100);
    marks.set(SAM, 'favorite', 7, true, 500);
    expect(marks.list(SAM, 'favorite')).toEqual([{ guideid: 7, at: 100 }]);
  });

  it('go with the technician', () => {
    marks.set(ANA, 'completed', 9, true, 100);
    db.prepare('DELETE FROM technicians WHERE id = ?').run(ANA);
    expect(ids(ANA, 'completed')).toEqual([]);
  });
});
