import type { Db } from './open.ts';
import { DAMAGED_ACTION } from './row-guard.ts';
import { isSound, recomputeRowSums } from './row-sums.ts';
import {
  databaseSeq,
  JOURNALED,
  keyOf,
  primaryKeys,
  rowKey,
  type JournaledTable,
  type JournalState,
  type Row,
} from './journal-rows.ts';

/** What the check of the work at start found and did. */
export interface WorkCheck {
  /** What was wrong, in words; empty when nothing was. */
  findings: string[];
  /** Rows put back from the journal (or removed as the journal says), by table. */
  restored: Record<string, number>;
  /** What could not be put back: named for the technician. */
  unrecoverable: string[];
  /** The journal was read whole: every action and technician, and all the open work, is in it. */
  complete: boolean;
}

/**
 * Checks the work in the database against its checksums, its indexes and the journal, and puts back
 * what the database lost. Which copy wins is decided by the change counts:
 *
 *   database behind the journal (its log lost or damaged, a fresh database after a salvage, or its count's
 *   own row damaged)  ──▶ the journal's rows, for every row it names
 *   database level with the journal     ──▶ the database's sound rows; the journal's for rows missing or
 *                                            failing their checksum (damage)
 *   database ahead (a crash before the journal was written: nothing of it was confirmed to the technician)
 *                                       ──▶ the database's; the journal only for rows failing their checksum,
 *                                            and for missing ones when damage was found besides
 *
 * `regression` names a damage of the log found before SQLite opened it (said even when it took nothing).
 */
export function checkWork(
  db: Db,
  journal: JournalState | null,
  options: { regression: string | null; salvaged: boolean },
): WorkCheck {
  const complete = journal !== null && journal.problem === null;
  const result: WorkCheck = {
    findings: options.regression ? [options.regression] : [],
    restored: {},
    unrecoverable: [],
    complete,
  };
  const keys = primaryKeys(db);
  const counted = databaseSeq(db);
  const named = journal?.rows ?? new Map<string, Row | null>();
  if (journal?.problem) result.findings.push(journal.problem);
  const damagedIndexes = JOURNALED.filter((table) => !indexesHold(db, table));
  const scans = JOURNALED.map((table) => scan(db, table, keys[table], named));
  const unsound = scans.reduce((n, s) => n + s.unsound.length, 0);
  if (unsound > 0) result.findings.push(`${unsound} row(s) of the work changed on the disk (their checksums fail)`);
  if (damagedIndexes.length > 0)
    result.findings.push(`the indexes of ${damagedIndexes.join(', ')} were damaged (rebuilt)`);
  const behind = journal !== null && (options.salvaged || !counted.sound || counted.seq < journal.seq);
  const ahead = journal !== null && !behind && counted.seq > journal.seq;
  if (journal && !options.salvaged && (!counted.sound || counted.seq < journal.seq)) {
    result.findings.push(
      `the database went back to an earlier state ` +
        `(${counted.sound ? journal.seq - counted.seq : 'its'} change(s) behind its journal)`,
    );
  }
  const damageFound = result.findings.length > 0;
  db.transaction(() => {
    // Indexes first: a row put back through an index that disagrees with its table finds SQLite's damage.
    for (const table of damagedIndexes) db.exec(`REINDEX main."${table}"`);
    // Children last when removing, parents first when putting back (foreign keys hold throughout).
    const mode = { behind, trustMissing: ahead && !damageFound };
    const plans = scans.map((s) => ({ ...s, plan: plan(s, keys[s.table], named, mode) }));
    for (const s of [...plans].reverse()) {
      for (const key of s.plan.remove) count(result, s.table, remove(db, s.table, keys[s.table], key));
      for (const rowid of s.plan.copies) removeRow(db, s.table, rowid);
    }
    const copies = plans.reduce((n, s) => n + s.plan.copies.length, 0);
    if (copies > 0)
      result.findings.push(`${copies} damaged copy(ies) of rows put back were removed (their keys were damaged)`);
    for (const s of plans) {
      for (const row of s.plan.put) {
        const problem = put(db, s.table, keys[s.table], row);
        if (problem) result.unrecoverable.push(`${s.table} (${problem})`);
        else count(result, s.table, 1);
      }
    }
    // With the journal whole and not behind, it names every action: one it does not name is a copy whose
    // key was damaged.
    for (const s of plans) keepAsFound(db, s.table, s.plan.asFound, result, complete && !ahead);
    const missing = plans.reduce((n, s) => n + s.plan.missing, 0);
    if (missing > 0) result.findings.push(`${missing} row(s) of the work were missing from the database`);
    // The count never goes back: a copy of an older journal can never pass for a newer one.
    db.prepare('UPDATE main.work_journal SET seq = ? WHERE id = 0').run(
      Math.max(counted.sound ? counted.seq : 0, journal?.seq ?? 0),
    );
    recomputeRowSums(db, ['work_journal']);
  })();
  return result;
}

interface Scan {
  table: JournaledTable;
  /** The database's rows the journal names, by name (keyOf). */
  named: Map<string, Row>;
  /** Keys of rows failing their checksum. */
  unsound: string[];
  /**
   * Those rows the journal does not name, as read, by their rowid: a damaged key may not be valid UTF-8,
   * and read back as text it no longer finds its row (the bytes SQLite holds are not the ones it is sent).
   */
  unnamed: Map<number, Row>;
}

/** The rowid of each row as scanned, under a name no table of the work has (every one is a rowid table). */
const ROWID = 'fg_scanned_rowid';

/** One pass over a table: the rows the journal names, and every row whose checksum fails. */
function scan(db: Db, table: JournaledTable, keys: string[], journal: Map<string, Row | null>): Scan {
  const result: Scan = { table, named: new Map(), unsound: [], unnamed: new Map() };
  const rows = db.prepare(`SELECT rowid AS ${ROWID}, * FROM main."${table}"`).iterate() as Iterable<Row>;
  for (const { [ROWID]: rowid, ...row } of rows) {
    const key = rowKey(keys, row);
    const named = journal.has(keyOf(table, key));
    if (named) result.named.set(keyOf(table, key), row);
    if (isSound(row)) continue;
    result.unsound.push(key);
    if (!named) result.unnamed.set(rowid as number, row);
  }
  return result;
}

/** A row without its key and checksum: what a copy whose key was damaged still shares with the row. */
function content(row: Row, keys: readonly string[]): string {
  return JSON.stringify(Object.entries(row).filter(([column]) => column !== 'row_sum' && !keys.includes(column)));
}

/** What to do with each row the journal names, and with unsound rows it does not name. */
function plan(
  s: Scan,
  keys: readonly string[],
  journal: Map<string, Row | null>,
  mode: { behind: boolean; trustMissing: boolean },
) {
  const unsound = new Set(s.unsound);
  const out = { put: [] as Row[], remove: [] as string[], copies: [] as number[], asFound: [] as number[], missing: 0 };
  const putBackMissing = new Set<string>();
  const prefix = keyOf(s.table, '');
  for (const [name, wanted] of journal) {
    if (!name.startsWith(prefix)) continue;
    const key = name.slice(prefix.length);
    const held = s.named.get(name);
    const sound = held !== undefined && !unsound.has(key);
    const same = held !== undefined && wanted !== null && JSON.stringify(held) === JSON.stringify(wanted);
    if (same && sound) continue;
    if (!mode.behind && sound) continue;
    if (held === undefined && wanted !== null && mode.trustMissing) continue;
    if (held === undefined && wanted !== null) {
      out.missing++;
      putBackMissing.add(content(wanted, keys));
    }
    if (wanted === null) {
      if (held !== undefined) out.remove.push(key);
    } else {
      out.put.push(wanted);
    }
  }
  // A damaged row the journal does not name that is a row put back but for its key: its key was damaged.
  for (const [rowid, row] of s.unnamed) {
    if (putBackMissing.has(content(row, keys))) out.copies.push(rowid);
    else out.asFound.push(rowid);
  }
  return out;
}

function count(result: WorkCheck, table: string, n: number): void {
  if (n > 0) result.restored[table] = (result.restored[table] ?? 0) + n;
}

function where(keys: string[]): string {
  return keys.map((k) => `"${k}" = ?`).join(' AND ');
}

function remove(db: Db, table: JournaledTable, keys: string[], key: string): number {
  return db.prepare(`DELETE FROM main."${table}" WHERE ${where(keys)}`).run(...(JSON.parse(key) as unknown[])).changes;
}

/** Removes a damaged row by where it is, not by its key as read (scan). */
function removeRow(db: Db, table: JournaledTable, rowid: number): void {
  db.prepare(`DELETE FROM main."${table}" WHERE rowid = ?`).run(rowid);
}

/** The journal's row in place of the database's (the columns both know; the checksum made anew). */
function put(db: Db, table: JournaledTable, keys: string[], row: Row): string | null {
  const have = new Set(
    (db.prepare(`PRAGMA main.table_info("${table}")`).all() as { name: string }[]).map((c) => c.name),
  );
  const columns = Object.keys(row).filter((c) => have.has(c) && c !== 'row_sum');
  const list = columns.map((c) => `"${c}"`).join(', ');
  const update = columns.filter((c) => !keys.includes(c)).map((c) => `"${c}" = excluded."${c}"`);
  const text =
    `INSERT INTO main."${table}" (${list}) VALUES (${columns.map(() => '?').join(', ')}) ` +
    `ON CONFLICT (${keys.map((k) => `"${k}"`).join(', ')}) ` +
    `DO ${update.length > 0 ? `UPDATE SET ${update.join(', ')}` : 'NOTHING'}`;
  try {
    db.prepare(text).run(...columns.map((c) => row[c]));
    return null;
  } catch (error) {
    return `${rowKey(keys, row)}: ${(error as Error).message}`;
  }
}

/**
 * Rows changed on the disk that the journal does not hold (history the site already has): kept as found
 * and named. An action among them is never sent as it reads now: it is set aside, shown with the reason.
 */
function keepAsFound(db: Db, table: JournaledTable, found: number[], result: WorkCheck, complete: boolean): void {
  if (found.length === 0) return;
  if (table === 'outbox' && complete) {
    for (const rowid of found) removeRow(db, table, rowid);
    result.findings.push(
      `${found.length} damaged copy(ies) of actions the journal does not name were removed (their ids were damaged)`,
    );
    return;
  }
  if (table === 'outbox') {
    const setAside = db.prepare(
      `UPDATE main.outbox SET state = 'failed', next_attempt_at = 0, last_error = ? WHERE rowid = ?`,
    );
    for (const rowid of found) setAside.run(DAMAGED_ACTION, rowid);
  }
  recomputeRowSums(db, [table]);
  result.unrecoverable.push(`${table} (${found.length} row(s) damaged on the disk and kept as found)`);
}

/**
 * SQLite's full check of one table and its indexes: an index that disagrees with its table misleads every
 * query through it (quick_check does not compare them). A page it cannot read at all throws SQLite's
 * damage error: the database is then set aside and salvaged (data-folder.ts).
 */
function indexesHold(db: Db, table: JournaledTable): boolean {
  const rows = db.pragma(`main.integrity_check("${table}")`) as { integrity_check: string }[];
  return rows.every((row) => row.integrity_check === 'ok');
}
