import zlib from 'node:zlib';
import type Database from 'better-sqlite3';

type Db = Database.Database;

/**
 * Every row of the technician's work carries a checksum of its other columns (`row_sum`, migration
 * 0015), so a page changed on the disk is found when the row is read, not only when SQLite's own check
 * happens to notice: a flipped byte in a payload or a session id passes `quick_check`. The sums are
 * kept by TEMP triggers this connection makes, so a connection without them (a test's, the sqlite3
 * shell) writes rows whose sums no longer hold: what Fieldguide did not write is not trusted either.
 */
/** The tables of the technician's work, parents first: what carries checksums and what the work journal keeps. */
export const WORK_TABLES = [
  'settings',
  'technicians',
  'work_sessions',
  'work_values',
  'attachments',
  'outbox',
  'conflicts',
  'quiz_attempts',
] as const;
/** With the journal's change count (journal-rows.ts), which is summed but not journaled. */
export const SUMMED_TABLES = [...WORK_TABLES, 'work_journal'] as const;
export type SummedTable = (typeof SUMMED_TABLES)[number];

const COLUMN = 'row_sum';
const FUNCTION = 'fieldguide_row_sum';

/** CRC-32 of the values in column order: JSON tells null, numbers and text apart. */
export function rowSum(values: readonly unknown[]): number {
  return zlib.crc32(JSON.stringify(values));
}

/** Whether a row read with `SELECT *` still matches its checksum. */
export function isSound(row: Record<string, unknown>): boolean {
  const { [COLUMN]: sum, ...rest } = row;
  return sum === rowSum(Object.values(rest));
}

/** The checksum function the triggers call; registered on every connection that writes the work. */
export function registerRowSum(db: Db): void {
  db.function(FUNCTION, { deterministic: true, varargs: true }, (...values: unknown[]) => rowSum(values));
}

/** Whether this database has the checksum column yet (migration 0015). */
export function hasRowSums(db: Db): boolean {
  return columnsOf(db, 'outbox').includes(COLUMN);
}

/** The columns a table's checksum covers, in column order. */
export function summedColumns(db: Db, table: SummedTable): string[] {
  return columnsOf(db, table).filter((name) => name !== COLUMN);
}

/** Makes (again) the triggers that keep every row's checksum, for the columns the tables have now. */
export function installRowSums(db: Db): void {
  for (const table of SUMMED_TABLES) {
    const columns = summedColumns(db, table);
    const list = columns.map((c) => `"${c}"`).join(', ');
    const update = `UPDATE main."${table}" SET ${COLUMN} = ${FUNCTION}(${list}) WHERE rowid = new.rowid`;
    db.exec(`
      DROP TRIGGER IF EXISTS temp."fg_sum_${table}_insert";
      DROP TRIGGER IF EXISTS temp."fg_sum_${table}_update";
      CREATE TEMP TRIGGER "fg_sum_${table}_insert" AFTER INSERT ON main."${table}" BEGIN ${update}; END;
      CREATE TEMP TRIGGER "fg_sum_${table}_update" AFTER UPDATE OF ${list} ON main."${table}" BEGIN ${update}; END;
    `);
  }
}

/** Sums every row anew: after a migration changed the columns, or once the rows were checked and repaired. */
export function recomputeRowSums(db: Db, tables: readonly SummedTable[] = SUMMED_TABLES): void {
  for (const table of tables) {
    const list = summedColumns(db, table)
      .map((c) => `"${c}"`)
      .join(', ');
    db.prepare(`UPDATE main."${table}" SET ${COLUMN} = ${FUNCTION}(${list})`).run();
  }
}

function columnsOf(db: Db, table: string): string[] {
  return (db.prepare(`PRAGMA main.table_info("${table}")`).all() as { name: string }[]).map((row) => row.name);
}
