import type Database from 'better-sqlite3';

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * A prepared statement, prepared once per connection and text: repositories call this on hot paths
 * (every media file, every guide) where preparing anew cost more than running.
 */
export function sql<P extends unknown[] = unknown[], R = unknown>(
  db: Database.Database,
  text: string,
): Database.Statement<P, R> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(text);
  if (!statement) {
    statement = db.prepare(text);
    cache.set(text, statement);
  }
  return statement as unknown as Database.Statement<P, R>;
}

/**
 * Runs `fn` in a transaction whose commit does not wait for the disk (synchronous=NORMAL in WAL mode),
 * for what the site can give again: the library a sync stores. A crash of the app loses nothing so
 * committed; a power cut may undo the last such commits, never damage the database. A technician's
 * input committed so (a call of theirs, Store.deferFlushes) has the log flushed before their answer
 * (wal-flush.ts); a flush of the log covers every frame before it, so the sync's cursor, flushed so
 * (Store.durable), never moves past guides the disk does not have.
 */
export function replaceableWrite<T>(db: Database.Database, fn: () => T): T {
  if (db.inTransaction) return db.transaction(fn)();
  sql(db, 'PRAGMA main.synchronous = NORMAL').run();
  try {
    return db.transaction(fn)();
  } finally {
    sql(db, 'PRAGMA main.synchronous = FULL').run();
  }
}
