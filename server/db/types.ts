import type Database from 'better-sqlite3';

export type Db = Database.Database;

/** One schema module: its tables, created once per database file and recorded by name. */
export interface SchemaModule {
  readonly name: string;
  /**
   * Runs with foreign keys off (SQLite's way to rebuild a table that others reference: dropping it then
   * cascades into nothing); the references are checked before the module commits.
   */
  readonly rebuildsTables?: true;
  up(db: Db): void;
}
