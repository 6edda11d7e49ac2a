import type Database from 'better-sqlite3';

export type Db = Database.Database;

/** One schema module: its tables, created once per database file and recorded by name. */
export interface SchemaModule {
  readonly name: string;
  up(db: Db): void;
}
