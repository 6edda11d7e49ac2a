import type Database from 'better-sqlite3';

/**
 * Media by stored name: whether another URL still uses a file or picture (eviction), and which pictures
 * no row names (the sweep after each media phase), are lookups by `file`, not scans of the index.
 */
export function up(db: Database.Database): void {
  db.exec(`CREATE INDEX media_file ON media(file) WHERE file IS NOT NULL;`);
}
