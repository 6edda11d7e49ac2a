import Database from 'better-sqlite3';
import { SCHEMA } from './schema.ts';
import type { Db, SchemaModule } from './types.ts';

export type { Db, SchemaModule } from './types.ts';

/** Opens (creating if needed) the server's database and applies the schema modules it has not seen. */
export function openServerDb(file: string, modules: readonly SchemaModule[] = SCHEMA): Db {
  const db = new Database(file);
  try {
    // WAL only for files (an in-memory database has no journal to share); foreign keys are off by default.
    if (file !== ':memory:' && file !== '') db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    applySchema(db, modules);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export function applySchema(db: Db, modules: readonly SchemaModule[]): void {
  const names = new Set<string>();
  for (const module of modules) {
    if (names.has(module.name)) throw new Error(`Schema module listed twice: ${module.name}`);
    names.add(module.name);
  }
  db.exec('CREATE TABLE IF NOT EXISTS schema_modules (name TEXT PRIMARY KEY, applied INTEGER NOT NULL) STRICT');
  const applied = new Set(
    (db.prepare('SELECT name FROM schema_modules').all() as { name: string }[]).map((row) => row.name),
  );
  const record = db.prepare('INSERT INTO schema_modules (name, applied) VALUES (?, unixepoch())');
  for (const module of modules) {
    if (applied.has(module.name)) continue;
    const foreignKeys = db.pragma('foreign_keys', { simple: true }) === 1;
    if (module.rebuildsTables) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        module.up(db);
        const broken = db.pragma('foreign_key_check') as unknown[];
        if (broken.length > 0) throw new Error(`Schema module ${module.name} broke ${broken.length} references`);
        record.run(module.name);
      })();
    } finally {
      if (module.rebuildsTables && foreignKeys) db.pragma('foreign_keys = ON');
    }
  }
}

/**
 * Runs `seed` on a database no seed has filled yet. The seed manages its own transactions (a generator
 * commits in batches so a big site never sits in one transaction), so a seed that died half-way is marked
 * by a `seeding` row without `seeded`: such a file is refused rather than seeded on top of.
 */
export function seedOnce(db: Db, file: string, how: string, seed: (db: Db) => void): void {
  const state = (key: string) => db.prepare('SELECT value FROM site_meta WHERE key = ?').get(key) !== undefined;
  if (state('seeded')) return;
  if (state('seeding')) {
    throw new Error(`${file}: an earlier seed of this site did not finish; delete the file to start afresh`);
  }
  const mark = db.prepare('INSERT OR REPLACE INTO site_meta (key, value) VALUES (?, ?)');
  mark.run('seeding', how);
  seed(db);
  mark.run('seeded', how);
}
