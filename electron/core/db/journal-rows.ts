import { readJournal } from './journal-file.ts';
import type { Db } from './open.ts';
import { isSound, WORK_TABLES } from './row-sums.ts';
import { sql } from './statements.ts';

// The rows the work journal keeps (work-journal.ts): which tables, under which keys, which of them a
// snapshot keeps, and the journal file read back into the last state of each row.

export const JOURNALED = WORK_TABLES;
export type JournaledTable = (typeof JOURNALED)[number];
export type Row = Record<string, unknown>;

/** The journal as read back: the last state of every row it names (null: deleted), and the change count it reached. */
export interface JournalState {
  rows: Map<string, Row | null>;
  seq: number;
  /** Why reading stopped before the end of the file (damage), or null. */
  problem: string | null;
  /** Bytes of whole records read: where appending may go on. */
  readBytes: number;
}

export const keyOf = (table: string, key: string): string => `${table}\u0000${key}`;

/** Each journaled table's primary key columns, in key order. */
export function primaryKeys(db: Db): Record<JournaledTable, string[]> {
  const keys = {} as Record<JournaledTable, string[]>;
  for (const table of JOURNALED) {
    const info = db.prepare(`PRAGMA main.table_info("${table}")`).all() as { name: string; pk: number }[];
    keys[table] = info
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
  }
  return keys;
}

/** The key a row is journaled under: its primary key values as JSON (as the triggers' json_array writes it). */
export function rowKey(keys: readonly string[], row: Row): string {
  return JSON.stringify(keys.map((k) => row[k]));
}

/** The change count the database reached, and whether its row is sound. */
export function databaseSeq(db: Db): { seq: number; sound: boolean } {
  const row = sql(db, 'SELECT * FROM main.work_journal WHERE id = 0').get() as Row | undefined;
  if (!row || typeof row.seq !== 'number') return { seq: 0, sound: false };
  return { seq: row.seq, sound: isSound(row) };
}

/** Reads a journal file back into the last state of each row it names. */
export function readWorkJournal(file: string): JournalState | null {
  const reading = readJournal(file);
  if (!reading) return null;
  const rows = new Map<string, Row | null>();
  let seq = 0;
  for (const record of reading.records) {
    const r = record as { kind?: unknown; seq?: unknown; rows?: unknown };
    if (r.kind === 'journal') {
      rows.clear();
      seq = Number(r.seq) || 0;
    } else if (r.kind === 'rows' && Array.isArray(r.rows)) {
      for (const [table, key, row] of r.rows as [string, string, Row | null][]) rows.set(keyOf(table, key), row);
      seq = Number(r.seq) || seq;
    }
  }
  const problem =
    reading.readBytes < reading.size
      ? `the work journal could not be read past byte ${reading.readBytes} of ${reading.size} (cut short or damaged)`
      : null;
  return { rows, seq, problem, readBytes: reading.readBytes };
}
