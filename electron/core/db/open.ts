import Database from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations/index.ts';
import { ownerDatabaseFile } from './owner-only.ts';

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

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  ownerDatabaseFile(file);
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    // WAL lets readers run beside the writer; synchronous=FULL because a laptop's battery dies and a
    // technician's input must survive power loss, not merely a crash of the app.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // Sorts and statement journals in memory: as files, every multi-row statement opened and unlinked one.
    db.pragma('temp_store = MEMORY');
    migrate(db, file, MIGRATIONS);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Runs each pending migration in a transaction of its own and records it in `user_version` of `schema`
 * (`main`, or an attached database such as `pictures`).
 */
export function migrate(db: Db, file: string, migrations: readonly Migration[], schema = 'main'): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`Migration list is out of order: ${migration.name} has version ${migration.version} at ${index + 1}`);
    }
  });
  const current = db.pragma(`${schema}.user_version`, { simple: true }) as number;
  if (current > migrations.length) throw new DatabaseTooNewError(file, current, migrations.length);
  for (const migration of migrations.slice(current)) {
    db.transaction(() => {
      migration.up(db);
      db.pragma(`${schema}.user_version = ${migration.version}`);
    })();
  }
}

