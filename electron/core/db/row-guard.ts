import type { Db } from './open.ts';
import { isSound } from './row-sums.ts';
import { sql } from './statements.ts';
import type { WorkJournal } from './work-journal.ts';
import { primaryKeys, rowKey, type JournaledTable, type Row } from './journal-rows.ts';

/** A row of the work that failed its checksum and that the journal could not put back. */
export class RowDamageError extends Error {
  override readonly name = 'RowDamageError';
  /** Read as SQLite's own damage (damage.ts isDamage): said, and checked again at the next start. */
  readonly code = 'SQLITE_CORRUPT_ROW';
  constructor(
    readonly table: string,
    readonly key: string,
  ) {
    super(`a row of ${table} (${key}) was changed on the disk and its checksum fails`);
  }
}

/** What an action set aside because it was damaged says to the technician. */
export const DAMAGED_ACTION =
  "This action was damaged on this computer's disk and could not be put back from the work journal; " +
  'check it before retrying.';

/**
 * Rows of the work checked as they are read: a row whose checksum fails is put back from the work
 * journal at once (logged), so what is sent and shown is what the technician saved. An action the
 * journal does not hold is set aside, failed with the reason (never sent as it reads now); another row
 * is a RowDamageError.
 */
export class RowGuard {
  readonly #keys: Record<JournaledTable, string[]>;

  constructor(
    private readonly db: Db,
    private readonly journal: WorkJournal,
    private readonly log: (message: string) => void,
  ) {
    this.#keys = primaryKeys(db);
  }

  /** The row as saved: as read when sound, else put back (or set aside) and read again. */
  sound<T extends Row>(table: JournaledTable, row: T): T {
    if (isSound(row)) return row;
    const keys = this.#keys[table];
    const key = rowKey(keys, row);
    const where = keys.map((k) => `"${k}" = ?`).join(' AND ');
    const values = JSON.parse(key) as unknown[];
    const kept = this.journal.latest(table, key);
    if (kept) {
      const columns = Object.keys(kept).filter((c) => c !== 'row_sum' && !keys.includes(c));
      sql(this.db, `UPDATE main."${table}" SET ${columns.map((c) => `"${c}" = ?`).join(', ')} WHERE ${where}`).run(
        ...columns.map((c) => kept[c]),
        ...values,
      );
      this.log(`A row of ${table} (${key}) was changed on the disk; it was put back from the work journal.`);
    } else if (table === 'outbox') {
      sql(this.db, `UPDATE main.outbox SET state = 'failed', next_attempt_at = 0, last_error = ? WHERE ${where}`).run(
        DAMAGED_ACTION,
        ...values,
      );
      this.log(`Outbox action ${key} was changed on the disk and the work journal does not hold it: set aside.`);
    } else {
      throw new RowDamageError(table, key);
    }
    return sql(this.db, `SELECT * FROM main."${table}" WHERE ${where}`).get(...values) as T;
  }
}
