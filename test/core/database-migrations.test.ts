import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, PICTURE_MIGRATIONS } from '../../electron/core/db/migrations/index.ts';
import { migrate } from '../../electron/core/db/open.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// Rows written at each schema version, as the app of that version wrote them: each must reach the next
// version intact. A migration that loses or changes a row fails here before it ships.
const ROWS_AT: Record<number, string[]> = {
  1: [`INSERT INTO settings (key, value) VALUES ('site', '{"url":"https://a.test","demo":false}')`],
  2: [
    `INSERT INTO guides (guideid, revisionid, title, category, summary, flags, image, modified_date, stored_revisionid)
     VALUES (7, 3, 'Replace the belt', 'Compressors', 'A belt', '["DANGER"]',
       '{"id":1,"thumbnail":"https://a.test/t.png"}', 1700000000, 3)`,
    `INSERT INTO guide_revisions (guideid, revisionid, detail, stored_at) VALUES (7, 3, '{"guideid":7}', 1700000001)`,
    `INSERT INTO revision_pins (guideid, revisionid, reason) VALUES (7, 3, 'session:s1')`,
    `INSERT INTO guide_tags (guideid, tag) VALUES (7, 'belts')`,
    `INSERT INTO step_forms (form_revisionid, guideid, stepid, form) VALUES (11, 7, 70, '{"fields":[]}')`,
    `INSERT INTO quiz_revisions (quiz_revisionid, quizid, title, survey, passing_score) ` +
      `VALUES (21, 2, 'Safety', '{"pages":[]}', 80)`,
    `INSERT INTO guide_quizzes (guideid, quizid, quiz_revisionid) VALUES (7, 2, 21)`,
    `INSERT INTO categories (name, parent, position) VALUES ('Compressors', NULL, 0)`,
    `INSERT INTO guide_search (rowid, title, summary, body) ` +
      `VALUES (7, 'Replace the belt', 'A belt', 'Loosen the tensioner')`,
    `INSERT INTO media (url, file, mime, bytes, status, last_used) ` +
      `VALUES ('https://a.test/t.png', '${'a'.repeat(64)}.png', 'image/png', 10, 'done', 5)`,
    `INSERT INTO media_refs (guideid, url) VALUES (7, 'https://a.test/t.png')`,
    `INSERT INTO sync_queue (guideid, revisionid, attempts, last_error) VALUES (8, 1, 2, 'GET /guides/8 answered 500')`,
  ],
  3: [
    `INSERT INTO work_sessions (id, entryid, guideid, guide_revisionid, guide_title, workorderid, userid, status,
       started_at, created_at, updated_at)
     VALUES ('s1', NULL, 7, 3, 'Replace the belt', 'WO-1', 4, 'paused', 1700000100, 1700000100, 1700000200)`,
    `INSERT INTO work_values (session_id, field_guid, field_revisionid, stepid, value, server_value) ` +
      `VALUES ('s1', 'g1', 12, 70, '42', NULL)`,
    `INSERT INTO attachments (id, session_id, file, name, upload_name, mime, bytes, created_at) ` +
      `VALUES ('a1', 's1', 'a1.jpg', 'belt.jpg', 'fg-a1-belt.jpg', 'image/jpeg', 9, 1700000150)`,
    `INSERT INTO outbox (chain, kind, payload, acted_at, state, attempts, next_attempt_at, unknown_outcome, created_at)
     VALUES ('s1', 'start', '{"sessionId":"s1","guideid":7,"workorderid":"WO-1"}', 1700000100, 'pending', 1,
       1700000500000, 1, 1700000100)`,
    `INSERT INTO conflicts (session_id, kind, field_guid, stepid, label, mine, theirs, base, message, created_at)
     VALUES ('s1', 'field', 'g1', 70, 'Hours', '42', '40', NULL, 'Changed on both sides', 1700000300)`,
  ],
  4: [
    `INSERT INTO quiz_stages (quizid, course_stageid, title, passing_score) VALUES (2, 5, 'Air', 90)`,
    `INSERT INTO quiz_attempts (id, quizid, quiz_revisionid, title, course_stageid, answers, score, passed,
       passing_score, results, started_at, finished_at)
     VALUES ('q1', 2, 21, 'Safety', 5, '{"a":1}', 100, 1, 90, '[]', 1700000400, 1700000460)`,
  ],
  5: [],
  6: [`INSERT INTO media_refs (guideid, url, needed_at) VALUES (7, 'https://a.test/s1.large', 'large')`],
  7: [
    `INSERT INTO technicians (id, site, userid, username, unique_username, image_url, privileges, email,
       signed_in_at, refused_at)
     VALUES (9, 'https://a.test', 4, 'Sam Okafor', 'samokafor', NULL, '["User"]', 'tech1@a.test', 1700000500, NULL)`,
  ],
  8: [
    `INSERT INTO site_modules (site, module, state, status, checked_at) ` +
      `VALUES ('https://a.test', 'work_log', 'missing', 404, 1700000600)`,
    `UPDATE sync_queue SET failed_at = 1700000600, next_attempt_at = NULL, resource = 'GET /guides/1', attempts = 5`,
  ],
  // Indexes only: every row before it is carried as it was.
  9: [],
  10: [`INSERT INTO media (url, status, rank) VALUES ('https://a.test/p1.thumbnail', 'pending', 0)`],
  // The search index made again with prefixes: its rows are carried as they were.
  11: [],
  // Step forms keyed by guide as well (the step_forms row of version 2 is carried), prerequisites, endpoints.
  12: [
    `INSERT INTO guide_prerequisites (guideid, position, prerequisite) VALUES (7, 0, 1)`,
    `INSERT INTO step_forms (form_revisionid, guideid, stepid, form) VALUES (11, 1, 70, '{"fields":[]}')`,
    `INSERT INTO site_modules (site, module, state, status, checked_at, via)
     VALUES ('https://a.test', 'search', 'offered', 200, 1700000700, 'suggest')`,
  ],
  13: [
    `INSERT INTO guide_translations (guideid, langid, revisionid, fallback, detail, stored_at)
     VALUES (7, 'de', 3, 0, '{"guideid":7}', 1700000800)`,
    `INSERT INTO guide_search_translated (rowid, title, summary, body)
     VALUES (1, 'Riemen ersetzen', 'Ein Riemen', 'Spanner lösen')`,
  ],
  14: [
    `UPDATE outbox SET refusals = 2, refused_since = 1700000700, unknown_since = 1700000690000`,
    `INSERT INTO conflicts (session_id, kind, label, message, created_at, technician)
     VALUES ('s1', 'notice', 'A second start removed', 'The site made two entries; one was removed.', 1700000710, 9)`,
  ],
  // Checksum columns (filled in by the app after the migrations), and the journal's count, whose one row
  // the migration writes itself.
  15: [],
  16: [`UPDATE work_sessions SET sign_off = '{"name":"tech1","how":"typed"}'`],
  17: [
    `INSERT INTO guide_marks (technician, mark, guideid, at) VALUES (9, 'favorite', 7, 1700000900)`,
    `INSERT INTO guide_marks (technician, mark, guideid, at) VALUES (9, 'opened', 7, 1700000901)`,
  ],
  18: [
    `INSERT INTO my_comments (id, technician, guideid, context, contextid, parentid, text, written_at, commentid,
       posted_at, deleted)
     VALUES ('c1', 9, 1, 'step', 11, NULL, 'The plate says 35 Nm.', 1700000800, 41, 1700000810, 0)`,
  ],
  19: [`INSERT INTO guide_reads (technician, guideid, revisionid, read_at) VALUES (9, 1, 1, 1700000900)`],
  20: [
    `INSERT INTO guide_releases (guideid, releaseid, revisionid, title, notes, released_at, by_name)
     VALUES (1, 5, 2, 'Belt guard', 'Step 3 checks the guard.', 1700001000, 'Morgan Reyes')`,
  ],
  21: [`INSERT INTO media (url, status, rank, zoom_only) VALUES ('https://cdn.test/p9.large', 'pending', 2, 1)`],
  22: [`UPDATE conflicts SET attachment_id = 'a1' WHERE kind = 'field'`],
  23: [`UPDATE work_sessions SET taken_from = '{"userid":4,"name":"Jordan Lee","at":1700000950}'`],
  24: [],
  25: [`UPDATE work_sessions SET ran_unwatched = '[{"from":1700001000,"to":1700050000}]'`],
  26: [`UPDATE work_sessions SET removed_on_site = 1700060000`],
  27: [
    `UPDATE work_sessions SET handed_back =
       '{"userid":5,"name":"Jordan Lee","at":1700070000,"changed":[{"label":"Hours","was":"42","now":"44"}]}'`,
  ],
  28: [`UPDATE work_sessions SET state_from_site = 1700080000`],
  29: [`UPDATE work_values SET changed_elsewhere = '{"was":"42","at":1700090000}'`],
  30: [`UPDATE work_sessions SET site_guide_revisionid = 2`],
};

type Snapshot = Map<string, { columns: string[]; rows: unknown[][] }>;

/** Every row of every table (FTS shadow tables aside), in rowid order. */
function snapshot(db: Database.Database, schema = 'main'): Snapshot {
  const tables = db
    .prepare(
      `SELECT name FROM ${schema}.sqlite_master ` +
        `WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'guide_search_%' ORDER BY name`,
    )
    .all() as { name: string }[];
  const result: Snapshot = new Map();
  for (const { name } of tables) {
    const columns = (
      db.prepare(`SELECT name FROM pragma_table_info(?, ?)`).all(name, schema) as { name: string }[]
    ).map((c) => c.name);
    const rows = db
      .prepare(`SELECT ${columns.join(', ')} FROM ${schema}.${name} ORDER BY rowid`)
      .raw()
      .all() as unknown[][];
    result.set(name, { columns, rows });
  }
  return result;
}

/** The tables and rows of `before` as they read now, over the columns they had then. */
function sameRows(db: Database.Database, before: Snapshot, schema = 'main'): Snapshot {
  const now: Snapshot = new Map();
  for (const [name, { columns }] of before) {
    now.set(name, {
      columns,
      rows: db
        .prepare(`SELECT ${columns.join(', ')} FROM ${schema}.${name} ORDER BY rowid`)
        .raw()
        .all() as unknown[][],
    });
  }
  return now;
}

let tmp: ReturnType<typeof makeTempDir>;
beforeEach(() => (tmp = makeTempDir('migrations')));
afterEach(() => tmp.remove());

describe('migrations', () => {
  it.each(MIGRATIONS.slice(1).map((m) => [m.version - 1, m.version]))(
    'carry every row written up to version %i to version %i',
    (_previous, next) => {
      const file = path.join(tmp.dir, `to-${next}.sqlite`);
      const db = new Database(file);
      migrate(db, file, MIGRATIONS.slice(0, next - 1));
      // What earlier versions wrote is there too: a database seldom skips a version's rows.
      for (let version = 1; version < next; version++) for (const insert of ROWS_AT[version] ?? []) db.exec(insert);
      const before = snapshot(db);
      expect(before.size).toBeGreaterThan(0);

      migrate(db, file, MIGRATIONS.slice(0, next));
      expect(db.pragma('user_version', { simple: true })).toBe(next);
      expect(sameRows(db, before)).toEqual(before);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    },
  );

  it('write rows for every table the latest version has (the test above covers them all)', () => {
    const file = path.join(tmp.dir, 'latest.sqlite');
    const db = new Database(file);
    migrate(db, file, MIGRATIONS);
    for (let version = 1; version <= MIGRATIONS.length; version++)
      for (const insert of ROWS_AT[version] ?? []) db.exec(insert);
    const empty = [...snapshot(db)].filter(([, { rows }]) => rows.length === 0).map(([name]) => name);
    expect(empty).toEqual([]);
    expect(Object.keys(ROWS_AT).map(Number)).toEqual(MIGRATIONS.map((m) => m.version));
    db.close();
  });

  it('make the conflicts table again for notices: ids kept, the next one after them, open ones found by index', () => {
    const file = path.join(tmp.dir, 'notices.sqlite');
    const db = new Database(file);
    migrate(db, file, MIGRATIONS.slice(0, 13));
    for (let version = 1; version <= 13; version++) for (const insert of ROWS_AT[version] ?? []) db.exec(insert);
    db.exec(`DELETE FROM conflicts; INSERT INTO conflicts (id, session_id, kind, label, message, created_at)
      VALUES (40, 's1', 'transition', 'Paused', 'Paused elsewhere', 1)`);
    migrate(db, file, MIGRATIONS.slice(0, 14));
    const id = db
      .prepare(
        `INSERT INTO conflicts (session_id, kind, label, message, created_at)
      VALUES ('s1', 'notice', 'Removed', 'A second start was removed', 2)`,
      )
      .run().lastInsertRowid;
    expect(Number(id)).toBe(41);
    expect(() =>
      db.exec(`INSERT INTO conflicts (session_id, kind, label, message, created_at)
      VALUES ('s1', 'other', 'x', 'y', 3)`),
    ).toThrow(/CHECK/);
    const open = 'SELECT id FROM conflicts WHERE settled IS NULL AND technician = 9';
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${open}`).all();
    expect(JSON.stringify(plan)).toMatch(/USING (COVERING )?INDEX conflicts_technician/);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('make the search index again with prefixes, its rows, rank and matches as they were', () => {
    const file = path.join(tmp.dir, 'prefixes.sqlite');
    const db = new Database(file);
    migrate(db, file, MIGRATIONS.slice(0, 10));
    for (const insert of ROWS_AT[2]!) db.exec(insert);
    db.exec(
      `INSERT INTO guide_search (rowid, title, summary, body) ` +
        `VALUES (8, 'Inspect the compressor', 'Belts and hoses', '')`,
    );
    const queries = ['"bel"*', '"compressor" "ho"*', '"loosen"', '{title} : "bel"*'];
    const search = (text: string) =>
      db.prepare('SELECT rowid FROM guide_search WHERE guide_search MATCH ? ORDER BY rank').pluck().all(text);
    const before = queries.map(search);
    expect(before).toEqual([[7, 8], [8], [7], [7]]);
    migrate(db, file, MIGRATIONS.slice(0, 11));
    expect(db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'guide_search'`).pluck().get()).toMatch(
      /prefix='2 3 4'/,
    );
    expect(db.prepare(`SELECT v FROM guide_search_config WHERE k = 'rank'`).pluck().get()).toBe('bm25(10.0, 4.0, 1.0)');
    expect(queries.map(search)).toEqual(before);
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name LIKE 'guide_search_prefixed%'`).all()).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('add the parts and tools of the guides kept before to the search index, in each language', () => {
    // A walk searched "AX-section" and "Torque wrench", in a guide's Parts and Tools: nothing was found.
    const file = path.join(tmp.dir, 'parts.sqlite');
    const db = new Database(file);
    migrate(db, file, MIGRATIONS.slice(0, 23));
    for (let version = 1; version <= 23; version++) for (const insert of ROWS_AT[version] ?? []) db.exec(insert);
    const item = (text: string, notes: string | null) => ({ text, notes, quantity: 1, url: null, optional: false });
    const detail = (part: string) =>
      JSON.stringify({
        guideid: 7,
        parts: [item(part, 'Gates 4L340'), item('Key', null)],
        tools: [item('Torque wrench', null)],
      });
    db.prepare('UPDATE guide_revisions SET detail = ? WHERE guideid = 7 AND revisionid = 3').run(detail('AX-section'));
    db.prepare("UPDATE guide_translations SET detail = ? WHERE guideid = 7 AND langid = 'de'").run(
      detail('Keilriemen AX'),
    );
    // A guide whose detail is damaged keeps its row as it was (the next sync stores it again).
    db.exec(`INSERT INTO guides (guideid, revisionid, title, summary, flags, modified_date, stored_revisionid)
      VALUES (8, 1, 'Oil', 'Oil', '[]', 1700000000, 1)`);
    db.exec(`INSERT INTO guide_revisions (guideid, revisionid, detail, stored_at) VALUES (8, 1, '{"parts":[', 1)`);
    db.exec(`INSERT INTO guide_search (rowid, title, summary, body) VALUES (8, 'Oil', 'Oil', 'Drain the oil')`);
    const search = (table: string, text: string) =>
      db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ?`).pluck().all(text);
    expect(search('guide_search', '"ax" "section"')).toEqual([]);

    migrate(db, file, MIGRATIONS.slice(0, 24));
    expect(search('guide_search', '"ax" "section"')).toEqual([7]);
    expect(search('guide_search', '"torque" "wrench"')).toEqual([7]);
    expect(search('guide_search', '"4l340"')).toEqual([7]);
    expect(search('guide_search', '"loosen"')).toEqual([7]);
    expect(search('guide_search_translated', '"keilriemen"').length).toBe(1);
    // As search-text.ts writes them, a part's notes with it: a snippet does not run one into the next.
    expect(db.prepare('SELECT body FROM guide_search WHERE rowid = 7').pluck().get()).toBe(
      'Loosen the tensioner\nAX-section (Gates 4L340);\nKey;\nTorque wrench;',
    );
    expect(db.prepare('SELECT body FROM guide_search WHERE rowid = 8').pluck().get()).toBe('Drain the oil');
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it(
    'give guides stored before picture qualities the zoom variants of their step pictures, ' +
      'to download once chosen',
    () => {
      const file = path.join(tmp.dir, 'zoom.sqlite');
      const db = new Database(file);
      migrate(db, file, MIGRATIONS.slice(0, 5));
      const image = (n: number) => ({
        id: n,
        thumbnail: `https://a.test/${n}.thumbnail`,
        standard: `https://a.test/${n}.standard`,
        large: `https://a.test/${n}.large`,
        original: `https://a.test/${n}`,
      });
      const detail = {
        guideid: 7,
        steps: [
          { stepid: 1, media: { type: 'image', images: [image(1), { id: 2, standard: 'https://a.test/2.standard' }] } },
          { stepid: 2, media: { type: 'video', poster: image(3), encodings: [] } },
          { stepid: 3, media: { type: 'image', images: [image(4)] } },
        ],
      };
      db.exec(ROWS_AT[2]![0]!); // guide 7, its revision 3 stored
      const revision = db.prepare(
        'INSERT INTO guide_revisions (guideid, revisionid, detail, stored_at) VALUES (7, ?, ?, 1)',
      );
      revision.run(3, JSON.stringify(detail));
      revision.run(
        2,
        JSON.stringify({ ...detail, steps: [{ stepid: 9, media: { type: 'image', images: [image(9)] } }] }),
      );
      db.exec(`INSERT INTO media_refs (guideid, url) VALUES (7, 'https://a.test/1.standard')`);
      migrate(db, file, MIGRATIONS.slice(0, 6));

      const refs = db.prepare('SELECT url, needed_at FROM media_refs ORDER BY needed_at, url').all();
      // The stored revision's step pictures only (not the unpinned older one's, not the video poster's).
      expect(refs).toEqual([
        { url: 'https://a.test/1.standard', needed_at: 'always' },
        { url: 'https://a.test/1.large', needed_at: 'large' },
        { url: 'https://a.test/4.large', needed_at: 'large' },
        { url: 'https://a.test/1', needed_at: 'original' },
        { url: 'https://a.test/4', needed_at: 'original' },
      ]);
      const pending = db.prepare("SELECT url FROM media WHERE status = 'pending' ORDER BY url").all() as {
        url: string;
      }[];
      expect(pending.map((row) => row.url)).toEqual([
        'https://a.test/1',
        'https://a.test/1.large',
        'https://a.test/4',
        'https://a.test/4.large',
      ]);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    },
  );

  it('mark the files only a zoom variant needs, so that what the views show is read past none of them', () => {
    const file = path.join(tmp.dir, 'to-show.sqlite');
    const db = new Database(file);
    migrate(db, file, MIGRATIONS.slice(0, 20));
    const ref = db.prepare('INSERT INTO media_refs (guideid, url, needed_at) VALUES (?, ?, ?)');
    const media = db.prepare("INSERT OR IGNORE INTO media (url, status, rank) VALUES (?, 'pending', ?)");
    // A step picture, its large variant, and a site serving one file as both (always needed, then).
    for (const [url, at, rank] of [
      ['p1.standard', 'always', 1],
      ['p1.large', 'large', 2],
      ['both', 'always', 1],
      ['both', 'large', 2],
    ] as const) {
      ref.run(rank === 1 ? 1 : 2, url, at);
      media.run(url, rank);
    }
    media.run('gone', 2);
    migrate(db, file, MIGRATIONS.slice(0, 21));
    expect(db.prepare('SELECT url, zoom_only FROM media ORDER BY url').all()).toEqual([
      { url: 'both', zoom_only: 0 },
      { url: 'gone', zoom_only: 1 },
      { url: 'p1.large', zoom_only: 1 },
      { url: 'p1.standard', zoom_only: 0 },
    ]);
    const shown = "SELECT url FROM media WHERE status != 'done' AND zoom_only = 0 ORDER BY rank, rowid";
    expect(JSON.stringify(db.prepare(`EXPLAIN QUERY PLAN ${shown}`).all())).toMatch(/INDEX media_to_show/);
    expect(db.prepare(shown).pluck().all()).toEqual(['p1.standard', 'both']);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });
  it(
    'carry the pictures of a pictures database made before it had migrations (version 0, ' + 'the table already there)',
    () => {
      const file = path.join(tmp.dir, 'pictures.sqlite');
      const old = new Database(file);
      old.exec('CREATE TABLE picture (name TEXT PRIMARY KEY, data BLOB NOT NULL) STRICT');
      old
        .prepare('INSERT INTO picture (name, data) VALUES (?, ?)')
        .run(`${'b'.repeat(64)}.png`, Buffer.from([1, 2, 3]));
      old.close();

      const db = new Database(':memory:');
      db.prepare('ATTACH DATABASE ? AS pictures').run(file);
      const before = snapshot(db, 'pictures');
      migrate(db, file, PICTURE_MIGRATIONS, 'pictures');
      expect(db.pragma('pictures.user_version', { simple: true })).toBe(PICTURE_MIGRATIONS.length);
      expect(sameRows(db, before, 'pictures')).toEqual(before);
      expect(before.get('picture')?.rows).toHaveLength(1);
      db.close();
    },
  );
});
