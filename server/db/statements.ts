import type { Statement } from 'better-sqlite3';
import type { Db } from './types.ts';

const cache = new WeakMap<Db, Map<string, Statement>>();

/** A prepared statement, prepared once per database: bulk seeding calls the same inserts many times. */
export function statement(db: Db, sql: string): Statement {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = new Map()));
  let found = statements.get(sql);
  if (!found) statements.set(sql, (found = db.prepare(sql)));
  return found;
}
