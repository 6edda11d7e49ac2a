import type Database from 'better-sqlite3';

/**
 * The pictures database (attached as `pictures`): images up to PICTURE_MAX_BYTES by content name.
 * `IF NOT EXISTS`: files made before this database had migrations already hold the table, at version 0.
 */
export function up(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS pictures.picture (name TEXT PRIMARY KEY, data BLOB NOT NULL) STRICT');
}
