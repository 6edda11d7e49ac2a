import type { Db, SchemaModule } from './types.ts';

/**
 * Rebuilds `table` with its `INTEGER PRIMARY KEY` as AUTOINCREMENT, keeping its rows and indexes (SQLite's
 * twelve steps: a new table, the rows copied, the old dropped, the new renamed; foreign keys are off, so
 * the tables that reference it by name keep doing so and nothing cascades).
 */
function neverReuseIds(db: Db, table: string): void {
  const master = (type: string) =>
    db
      .prepare('SELECT name, sql FROM sqlite_master WHERE type = ? AND tbl_name = ? AND sql IS NOT NULL')
      .all(type, table) as { name: string; sql: string }[];
  const [created] = master('table');
  if (!created) throw new Error(`No table ${table}`);
  const rebuilt = `${table}_ids_never_reused`;
  const sql = created.sql
    .replace(new RegExp(`^CREATE TABLE "?${table}"?`), `CREATE TABLE ${rebuilt}`)
    .replace(/(\w+ INTEGER PRIMARY KEY)(?! AUTOINCREMENT)/, '$1 AUTOINCREMENT');
  if (!sql.startsWith(`CREATE TABLE ${rebuilt}`) || !sql.includes('AUTOINCREMENT')) {
    throw new Error(`${table}: cannot make its key AUTOINCREMENT from ${created.sql.slice(0, 60)}`);
  }
  db.exec(sql);
  db.exec(`INSERT INTO ${rebuilt} SELECT * FROM ${table} ORDER BY rowid`);
  db.exec(`DROP TABLE ${table}`);
  db.exec(`ALTER TABLE ${rebuilt} RENAME TO ${table}`);
  for (const index of master('index')) db.exec(index.sql);
}

/**
 * A deleted comment's or work-log entry's id is never given to a new one, as on a real site (an
 * AUTO_INCREMENT key). Without it SQLite hands the highest id back once that row is deleted, and a client
 * repeating a `DELETE` whose answer was lost (it cannot know the first one landed) deletes the technician's
 * next comment instead: the comments fault test (outbox-faults-comments.test.ts) lost one so. A work-log
 * entry's `DELETE` names its revision, but a new entry starts at the same one.
 */
export const idsNeverReusedSchema: SchemaModule = {
  name: 'ids-never-reused',
  rebuildsTables: true,
  up(db) {
    neverReuseIds(db, 'comments');
    neverReuseIds(db, 'work_log');
  },
};
