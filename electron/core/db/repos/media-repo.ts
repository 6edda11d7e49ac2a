import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

export interface PendingMedia {
  url: string;
  attempts: number;
}

export interface StoredMedia {
  file: string;
  mime: string;
  bytes: number;
}

/** The index of downloaded media: by URL, file named by content, with use times for eviction. */
export class MediaRepo {
  constructor(private readonly db: Db) {}

  pending(limit: number, maxAttempts: number): PendingMedia[] {
    return sql(this.db, 
        `SELECT m.url, m.attempts FROM media m WHERE m.status IN ('pending', 'failed') AND m.attempts < ?
         AND EXISTS (SELECT 1 FROM media_refs r WHERE r.url = m.url) ORDER BY m.rowid LIMIT ?`,
      )
      .all(maxAttempts, limit) as PendingMedia[];
  }

  pendingCount(): number {
    return (
      sql(this.db, `SELECT count(*) AS n FROM media m WHERE status != 'done' AND EXISTS (SELECT 1 FROM media_refs r WHERE r.url = m.url)`)
        .get() as { n: number }
    ).n;
  }

  markDone(url: string, stored: StoredMedia, now: number): void {
    sql(this.db, "UPDATE media SET status = 'done', file = ?, mime = ?, bytes = ?, error = NULL, last_used = ? WHERE url = ?")
      .run(stored.file, stored.mime, stored.bytes, now, url);
  }

  markFailed(url: string, error: string): void {
    sql(this.db, "UPDATE media SET status = 'failed', attempts = attempts + 1, error = ? WHERE url = ?").run(error, url);
  }

  /** Failed downloads get another chance at the next sync. */
  resetAttempts(): void {
    sql(this.db, "UPDATE media SET attempts = 0 WHERE status = 'failed'").run();
  }

  lookup(url: string): StoredMedia | undefined {
    return sql(this.db, "SELECT file, mime, bytes FROM media WHERE url = ? AND status = 'done'").get(url) as StoredMedia | undefined;
  }

  touch(url: string, now: number): void {
    sql(this.db, 'UPDATE media SET last_used = ? WHERE url = ?').run(now, url);
  }

  usage(): { bytes: number; files: number } {
    return sql(this.db, "SELECT coalesce(sum(bytes), 0) AS bytes, count(DISTINCT file) AS files FROM media WHERE status = 'done'").get() as {
      bytes: number;
      files: number;
    };
  }

  /** Downloaded media no stored guide needs, least recently used first. */
  evictable(limit: number): { url: string; file: string; bytes: number }[] {
    return sql(this.db, 
        `SELECT url, file, bytes FROM media m WHERE status = 'done'
         AND NOT EXISTS (SELECT 1 FROM media_refs r WHERE r.url = m.url) ORDER BY last_used LIMIT ?`,
      )
      .all(limit) as { url: string; file: string; bytes: number }[];
  }

  /** Forgets a media row; answers whether its file is still used by another URL. */
  forget(url: string): { fileStillUsed: boolean } {
    const row = sql(this.db, 'SELECT file FROM media WHERE url = ?').get(url) as { file: string | null } | undefined;
    sql(this.db, 'DELETE FROM media WHERE url = ?').run(url);
    if (!row?.file) return { fileStillUsed: false };
    return { fileStillUsed: sql(this.db, 'SELECT 1 FROM media WHERE file = ?').get(row.file) !== undefined };
  }

  /** Done pictures whose bytes are not in the pictures database (it was lost or damaged): pending again. */
  requeueMissingPictures(pictureMaxBytes: number): number {
    return sql(
      this.db,
      `UPDATE media SET status = 'pending', file = NULL, attempts = 0, error = NULL
       WHERE status = 'done' AND mime LIKE 'image/%' AND bytes <= ? AND NOT EXISTS (SELECT 1 FROM pictures.picture p WHERE p.name = media.file)`,
    ).run(pictureMaxBytes).changes;
  }

  /** Rows that no guide needs and that hold no file: left over from guides that changed. */
  pruneOrphans(): void {
    sql(this.db, "DELETE FROM media WHERE status != 'done' AND NOT EXISTS (SELECT 1 FROM media_refs r WHERE r.url = media.url)").run();
  }
}
