import { chainKeySql } from './chains.ts';
import { JournalFile } from './journal-file.ts';
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
import type { Db } from './open.ts';
import { isSound, summedColumns } from './row-sums.ts';
import { sql } from './statements.ts';

const FORMAT = 1;
/** The file is written anew (from the open work only) once it grows past this. */
const COMPACT_BYTES = 8 * 1024 * 1024;

/** The rows of the work that are not settled with the site yet, and what they need: what a snapshot keeps. */
const OPEN_WORK = `SELECT id FROM work_sessions WHERE status NOT IN ('complete', 'cancelled')
  OR ${chainKeySql('session', 'id')} IN (SELECT chain FROM outbox)
  OR id IN (SELECT session_id FROM conflicts WHERE settled IS NULL)`;
/**
 * The settings the work needs (the site, who works now, the scope), not the sync's own (`sync.*`): a
 * library lost with its database is synced again in full, from no cursor.
 */
const SETTINGS_KEPT = (row: string): string => `${row}key NOT LIKE 'sync.%'`;
const SNAPSHOT: Record<JournaledTable, string> = {
  settings: `SELECT * FROM settings WHERE ${SETTINGS_KEPT('')}`,
  technicians: 'SELECT * FROM technicians',
  work_sessions: `SELECT * FROM work_sessions WHERE id IN (${OPEN_WORK})`,
  work_values: `SELECT * FROM work_values WHERE session_id IN (${OPEN_WORK})`,
  attachments: `SELECT * FROM attachments WHERE session_id IN (${OPEN_WORK})`,
  outbox: 'SELECT * FROM outbox',
  conflicts: 'SELECT * FROM conflicts WHERE settled IS NULL',
  quiz_attempts: `SELECT * FROM quiz_attempts
    WHERE attemptid IS NULL OR ${chainKeySql('quiz', 'id')} IN (SELECT chain FROM outbox)`,
};

/**
 * The work journal (`fieldguide.journal`): a second record of the technician's work, in a file of its
 * own, so that a damaged log, a deleted log or a damaged page of the database cannot take away what a
 * technician was told is saved. After each commit (a replaceable one's: soon after, store.ts) the rows of
 * the work that changed are appended whole (a deleted row as null), with the database's change count (so
 * every earlier answer of the site is in it before a request leaves), and before an answer reaches the
 * technician the file is flushed to the disk (store.ts settle). At start the journal is read back and what
 * the database lost is put back (journal-restore.ts), then the file is written anew with the work still
 * open (a snapshot), so it stays small.
 *
 * Rows are found changed by TEMP triggers of this connection (every write path, whoever wrote it), so a
 * journal never needs a list of the writes to keep up with.
 */
export class WorkJournal {
  readonly #db: Db;
  readonly #file: JournalFile;
  readonly #keys: Record<JournaledTable, string[]>;
  readonly #log: (message: string) => void;
  /** The last state of every row the journal names (what `latest` answers and a compaction checks). */
  #state = new Map<string, Row | null>();

  constructor(
    db: Db,
    file: string,
    log: (message: string) => void,
    private readonly compactBytes = COMPACT_BYTES,
  ) {
    this.#db = db;
    this.#file = new JournalFile(file);
    this.#keys = primaryKeys(db);
    this.#log = log;
  }

  /** The triggers that note each changed row of the work (and count the changes in `work_journal`). */
  install(): void {
    const db = this.#db;
    db.exec(
      `CREATE TEMP TABLE IF NOT EXISTS fg_journal_changes (
         tbl TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (tbl, key))`,
    );
    db.exec(`DROP TRIGGER IF EXISTS temp.fg_journal_count;
      CREATE TEMP TRIGGER fg_journal_count AFTER INSERT ON temp.fg_journal_changes BEGIN
        UPDATE main.work_journal SET seq = seq + 1 WHERE id = 0; END;`);
    for (const table of JOURNALED) {
      // Not the checksum's own update (row-sums.ts), which follows every change already noted.
      const columns = (name: JournaledTable) =>
        summedColumns(db, name)
          .map((c) => `"${c}"`)
          .join(', ');
      const of = (row: 'new' | 'old') => `json_array(${this.#keys[table].map((k) => `${row}."${k}"`).join(', ')})`;
      const only = (row: 'new' | 'old') => (table === 'settings' ? `${SETTINGS_KEPT(`${row}.`)} AND ` : '');
      // Not INSERT OR IGNORE: a trigger's conflict clause gives way to the outer statement's (an upsert's).
      const note = (row: 'new' | 'old') =>
        `INSERT INTO temp.fg_journal_changes (tbl, key) SELECT '${table}', k FROM (SELECT ${of(row)} AS k)
           WHERE ${only(row)}NOT EXISTS (SELECT 1 FROM temp.fg_journal_changes WHERE tbl = '${table}' AND key = k);`;
      db.exec(`
        DROP TRIGGER IF EXISTS temp."fg_journal_${table}_insert";
        DROP TRIGGER IF EXISTS temp."fg_journal_${table}_update";
        DROP TRIGGER IF EXISTS temp."fg_journal_${table}_delete";
        CREATE TEMP TRIGGER "fg_journal_${table}_insert" AFTER INSERT ON main."${table}" BEGIN ${note('new')} END;
        CREATE TEMP TRIGGER "fg_journal_${table}_update" AFTER UPDATE OF ${columns(table)} ON main."${table}"
          BEGIN ${note('old')} ${note('new')} END;
        CREATE TEMP TRIGGER "fg_journal_${table}_delete" AFTER DELETE ON main."${table}" BEGIN ${note('old')} END;
      `);
    }
  }

  /**
   * Appends the rows changed since the last write (not inside a transaction: only what is committed).
   * The file is on the disk after `sync`; a crash of the app alone loses nothing written here.
   */
  write(): void {
    const db = this.#db;
    if (db.inTransaction) return;
    const changes = sql(db, 'SELECT tbl, key FROM temp.fg_journal_changes').all() as {
      tbl: JournaledTable;
      key: string;
    }[];
    if (changes.length === 0) return;
    const rows = changes.map(({ tbl, key }) => [tbl, key, this.#read(tbl, key)] as const);
    const { seq } = databaseSeq(db);
    this.#file.append([{ kind: 'rows', seq, rows }]);
    sql(db, 'DELETE FROM temp.fg_journal_changes').run();
    for (const [table, key, row] of rows) this.#state.set(keyOf(table, key), row);
    if (this.#file.size > this.compactBytes) this.#compact();
  }

  /** Writes what changed and waits for the disk to hold it. */
  sync(): void {
    this.write();
    this.#file.sync();
  }

  /** Writes what changed; resolves once the disk holds it, the wait made on the thread pool. */
  flush(): Promise<void> {
    this.write();
    return this.#file.flush();
  }

  /** The journal's last state of a row: undefined when it names no such row. */
  latest(table: JournaledTable, key: string): Row | null | undefined {
    return this.#state.get(keyOf(table, key));
  }

  /**
   * Writes the file anew from the open work, once the database holds all of it in its own file (a
   * checkpoint): a log lost later can then take the database back no further than this snapshot.
   */
  snapshot(): void {
    const db = this.#db;
    db.prepare('DELETE FROM temp.fg_journal_changes').run();
    db.pragma('main.wal_checkpoint(TRUNCATE)');
    const { rows, state } = this.#openWork();
    const { seq } = databaseSeq(db);
    this.#file.replace([
      { kind: 'journal', version: FORMAT, seq, at: Date.now() },
      { kind: 'rows', seq, rows },
    ]);
    this.#state = state;
  }

  /** Goes on with a file it could not write anew: its whole records kept, a torn or damaged tail cut off. */
  keepReadable(reading: JournalState): void {
    this.#file.truncate(reading.readBytes);
    this.#state = new Map(reading.rows);
  }

  close(): void {
    this.#file.close();
  }

  #read(table: JournaledTable, key: string): Row | null {
    const keys = this.#keys[table];
    const where = keys.map((k) => `"${k}" = ?`).join(' AND ');
    const row = sql(this.#db, `SELECT * FROM main."${table}" WHERE ${where}`).get(...(JSON.parse(key) as unknown[])) as
      Row | undefined;
    return row ?? null;
  }

  #openWork(): { rows: [JournaledTable, string, Row][]; state: Map<string, Row | null> } {
    const rows: [JournaledTable, string, Row][] = [];
    const state = new Map<string, Row | null>();
    for (const table of JOURNALED) {
      for (const row of this.#db.prepare(SNAPSHOT[table]).all() as Row[]) {
        const key = rowKey(this.#keys[table], row);
        rows.push([table, key, row]);
        state.set(keyOf(table, key), row);
      }
    }
    return { rows, state };
  }

  /**
   * A snapshot while running, only when the database agrees with the journal on every row the journal
   * names: a row changed or gone behind its back is damage, and the journal must keep the good copy.
   */
  #compact(): void {
    const { state } = this.#openWork();
    for (const [name, row] of this.#state) {
      const [table, key] = name.split('\u0000') as [JournaledTable, string];
      const now = state.get(name) ?? this.#read(table, key);
      const agrees =
        row === null ? now === null : now !== null && isSound(now) && JSON.stringify(now) === JSON.stringify(row);
      if (!agrees) {
        this.#log(
          `The work journal was not compacted: ${table} ${key} differs from the database ` +
            '(checked and repaired at the next start).',
        );
        return;
      }
    }
    this.snapshot();
  }
}
