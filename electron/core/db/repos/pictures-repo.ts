import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

/** Pictures by content name, in the attached pictures database (see library/media-store.ts for why). */
export class PicturesRepo {
  /** Pictures removed since the last sweep: their pages go back to the disk then. */
  #removed = 0;

  constructor(private readonly db: Db) {}

  /** Keeps a picture; call it in the transaction that indexes it. */
  keep(name: string, data: Buffer): void {
    sql(this.db, 'INSERT OR IGNORE INTO pictures.picture (name, data) VALUES (?, ?)').run(name, data);
  }

  read(name: string): Buffer | undefined {
    return (sql(this.db, 'SELECT data FROM pictures.picture WHERE name = ?').get(name) as { data: Buffer } | undefined)
      ?.data;
  }

  /** Answers whether there was such a picture. */
  remove(name: string): boolean {
    const removed = sql(this.db, 'DELETE FROM pictures.picture WHERE name = ?').run(name).changes > 0;
    if (removed) this.#removed++;
    return removed;
  }

  /**
   * Drops pictures no index row names (a crash between forgetting a row and its picture leaves one) and
   * gives the pages of dropped pictures back to the disk.
   */
  sweep(): void {
    // Over the name index (covering), not the table: a sweep reads names, never the pictures.
    const dropped = sql(
      this.db,
      `DELETE FROM pictures.picture WHERE rowid IN (
         SELECT p.rowid FROM pictures.picture p WHERE NOT EXISTS (SELECT 1 FROM main.media m WHERE m.file = p.name))`,
    ).run().changes;
    if (dropped > 0 || this.#removed > 0) this.db.pragma('pictures.incremental_vacuum');
    this.#removed = 0;
  }
}
