import type { Db, SchemaModule } from './types.ts';

/**
 * Rebuilds `table` from its own `CREATE TABLE` as `edit` changes it, keeping its rows, indexes and triggers
 * (SQLite's twelve steps: a new table, the rows copied, the old dropped, the new renamed; foreign keys are
 * off, so the tables that reference it by name keep doing so and nothing cascades).
 */
export function rebuildTable(db: Db, table: string, edit: (sql: string) => string): void {
  const master = (type: string) =>
    db
      .prepare('SELECT name, sql FROM sqlite_master WHERE type = ? AND tbl_name = ? AND sql IS NOT NULL')
      .all(type, table) as { name: string; sql: string }[];
  const [created] = master('table');
  if (!created) throw new Error(`No table ${table}`);
  const kept = [...master('index'), ...master('trigger')];
  const rebuilt = `${table}_rebuilt`;
  const sql = edit(created.sql.replace(new RegExp(`^CREATE TABLE "?${table}"?`), `CREATE TABLE ${rebuilt}`));
  if (!sql.startsWith(`CREATE TABLE ${rebuilt}`))
    throw new Error(`${table}: cannot rebuild ${created.sql.slice(0, 60)}`);
  db.exec(sql);
  db.exec(`INSERT INTO ${rebuilt} SELECT * FROM ${table} ORDER BY rowid`);
  db.exec(`DROP TABLE ${table}`);
  db.exec(`ALTER TABLE ${rebuilt} RENAME TO ${table}`);
  for (const entry of kept) db.exec(entry.sql);
}

/** Rebuilds `table` with its `INTEGER PRIMARY KEY` as AUTOINCREMENT. */
function neverReuseIds(db: Db, table: string): void {
  rebuildTable(db, table, (sql) => {
    const changed = sql.replace(/(\w+ INTEGER PRIMARY KEY)(?! AUTOINCREMENT)/, '$1 AUTOINCREMENT');
    if (!changed.includes('AUTOINCREMENT')) throw new Error(`${table}: cannot make its key AUTOINCREMENT`);
    return changed;
  });
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

/**
 * iFixit's sites have how-to guides besides the reference's seven types (its OpenAPI `GuideType`): a guide
 * revision may be one, so an iFixit-dialect site can send one.
 */
export const howToGuidesSchema: SchemaModule = {
  name: 'how-to-guides',
  rebuildsTables: true,
  up(db) {
    rebuildTable(db, 'guide_revisions', (sql) => {
      const changed = sql.replace(/'maintenance'\)\)/, "'maintenance', 'how-to'))");
      if (changed === sql) throw new Error('guide_revisions: no type check to widen');
      return changed;
    });
  },
};
