import Database from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations/index.ts';
import { ownerDatabaseFile } from './owner-only.ts';
import { hasRowSums, recomputeRowSums, registerRowSum } from './row-sums.ts';
import { replaceableWrite } from './statements.ts';
import { readLog, userVersionOf } from './wal-check.ts';

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  /**
   * Path of a better-sqlite3 addon built for this runtime. Node (tests, web shell) uses the one npm built;
   * the Electron shell passes the copy built for Electron's ABI (scripts/native-electron.mjs).
   */
  nativeBinding?: string;
}

export class DatabaseTooNewError extends Error {
  override readonly name = 'DatabaseTooNewError';
  constructor(
    readonly file: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `${file} was written by a newer Fieldguide (schema ${found}; this version knows up to ${known}). ` +
        'Update Fieldguide to open it; the file has not been changed.',
    );
  }
}

/** A database with the schema of this version: `openConnection`, then the migrations. */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const db = openConnection(file, options);
  try {
    upgrade(db, file);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A connection with Fieldguide's pragmas and the row checksum function, before any migration. A
 * database from a newer version is refused before SQLite opens it: a connection that read its log
 * would fold the log into the file when it closes.
 */
export function openConnection(file: string, options: OpenDatabaseOptions = {}): Db {
  refuseNewer(file);
  ownerDatabaseFile(file);
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    // One copy per data folder (folder-lock.ts): this connection holds the database file itself for as
    // long as it is open, so another process cannot even read it. In WAL mode it keeps the log's index
    // in its own memory instead of a -shm file, so no index outlives a crash.
    db.pragma('main.locking_mode = EXCLUSIVE');
    // WAL lets readers run beside the writer; synchronous=FULL because a laptop's battery dies and a
    // technician's input must survive power loss, not merely a crash of the app.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // Sorts and statement journals in memory: as files, every multi-row statement opened and unlinked one.
    db.pragma('temp_store = MEMORY');
    registerRowSum(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Runs the pending migrations; the rows' checksums are made anew when any ran (their columns may have changed). */
export function upgrade(db: Db, file: string): number {
  const applied = migrate(db, file, MIGRATIONS);
  if (applied > 0 && hasRowSums(db)) recomputeRowSums(db);
  return applied;
}

/** Refuses a database of a newer version, read from its bytes (its log's newest header first). */
export function refuseNewer(file: string): void {
  const found = userVersionOf(file, readLog(`${file}-wal`));
  if (found !== null && found > MIGRATIONS.length) throw new DatabaseTooNewError(file, found, MIGRATIONS.length);
}

/**
 * Runs each pending migration in a transaction of its own and records it in `user_version` of `schema`
 * (`main`, or an attached database such as `pictures`). In `main` they wait for the disk once, not once
 * each (a first start runs them all: a flush each held it a second on a slow disk): each commits without
 * the flush but the last, whose flush of the write-ahead log holds every commit before it. A power cut
 * before then takes back whole migrations only, each with its version: they run again at the next start.
 */
export function migrate(db: Db, file: string, migrations: readonly Migration[], schema = 'main'): number {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `Migration list is out of order: ${migration.name} has version ${migration.version} at ${index + 1}`,
      );
    }
  });
  const current = db.pragma(`${schema}.user_version`, { simple: true }) as number;
  if (current > migrations.length) throw new DatabaseTooNewError(file, current, migrations.length);
  const pending = migrations.slice(current);
  pending.forEach((migration, index) => {
    const run = () => {
      migration.up(db);
      db.pragma(`${schema}.user_version = ${migration.version}`);
    };
    if (schema === 'main' && index < pending.length - 1) replaceableWrite(db, run);
    else db.transaction(run)();
  });
  return migrations.length - current;
}
