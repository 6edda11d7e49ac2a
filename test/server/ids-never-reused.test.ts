import { afterEach, describe, expect, it } from 'vitest';
import { applySchema, openServerDb, type Db } from '../../server/db/open.ts';
import { SCHEMA } from '../../server/db/schema.ts';
import { idsNeverReusedSchema } from '../../server/db/schema-ids.ts';
import { seedDemoContent } from '../../server/demo/seed.ts';
import { seedDemoPeople } from '../../server/users/seed.ts';

// A demo site made before the `ids-never-reused` module upgrades in place: every comment, entry, value and
// timing kept, the references between them still enforced, and a deleted id never handed out again.
let db: Db | undefined;
afterEach(() => db?.close());

const count = (table: string) => (db!.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('the ids-never-reused schema module', () => {
  it('upgrades a seeded site keeping every row, and a deleted id is not handed out again', () => {
    db = openServerDb(
      ':memory:',
      SCHEMA.filter((module) => module !== idsNeverReusedSchema),
    );
    seedDemoPeople(db, {});
    seedDemoContent(db);
    const tables = ['comments', 'work_log', 'work_log_data', 'work_log_timings'];
    const before = Object.fromEntries(tables.map((t) => [t, count(t)]));
    expect(before.comments).toBeGreaterThan(0);
    expect(before.work_log_data).toBeGreaterThan(0);

    applySchema(db, SCHEMA);
    expect(Object.fromEntries(tables.map((t) => [t, count(t)]))).toEqual(before);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%reused_ids%'").all()).toEqual([]);

    // The references to work_log still cascade: its values go with an entry.
    const { entryid } = db.prepare('SELECT entryid FROM work_log_data LIMIT 1').get() as { entryid: number };
    const top = (db.prepare('SELECT max(entryid) AS id FROM work_log').get() as { id: number }).id;
    db.prepare('DELETE FROM work_log WHERE entryid IN (?, ?)').run(entryid, top);
    expect(db.prepare('SELECT count(*) AS n FROM work_log_data WHERE entryid = ?').get(entryid)).toEqual({ n: 0 });
    const { guideid, userid } = db.prepare('SELECT guideid, userid FROM work_log LIMIT 1').get() as {
      guideid: number;
      userid: number;
    };
    const inserted = db
      .prepare(
        `INSERT INTO work_log (guideid, userid, workorderid, starttime, status, revisionid, guide_revisionid)
         VALUES (?, ?, 'WO-1', 0, 'started', 1, 1)`,
      )
      .run(guideid, userid).lastInsertRowid;
    expect(Number(inserted)).toBeGreaterThan(top);

    const topComment = (db.prepare('SELECT max(commentid) AS id FROM comments').get() as { id: number }).id;
    db.prepare('DELETE FROM comments WHERE commentid = ?').run(topComment);
    const comment = db
      .prepare(
        `INSERT INTO comments (context, contextid, userid, text_raw, text_rendered, date, modified_date)
         VALUES ('guide', ?, ?, 'x', 'x', 0, 0)`,
      )
      .run(guideid, userid).lastInsertRowid;
    expect(Number(comment)).toBeGreaterThan(topComment);
  });
});
