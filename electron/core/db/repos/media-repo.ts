import type { PictureQuality } from '../../../contract.ts';
import { zoomVariant } from '../../../shared/media.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';
import { readableBy, type GuideReader } from './guide-row.ts';

export interface PendingMedia {
  url: string;
  attempts: number;
  /** 0 a library row's picture, 1 what the steps show, 2 videos and documents (migration 0010). */
  rank: number;
}

export interface StoredMedia {
  file: string;
  mime: string;
  bytes: number;
}

/**
 * When a guide needs a media file (`media_refs.needed_at`): `always` for what its views show, `large` or
 * `original` for the zoom variant of a step picture, needed only while that picture quality is chosen.
 */
export type NeededAt = 'always' | 'large' | 'original';

/** The refs that count at a picture quality: what is always needed, and the quality's own zoom variant. */
const neededAt = (quality: PictureQuality): NeededAt => zoomVariant(quality) ?? 'always';
const NEEDED = `EXISTS (SELECT 1 FROM media_refs r WHERE r.url = m.url AND r.needed_at IN ('always', ?))`;

/** The index of downloaded media: by URL, file named by content, with use times for eviction. */
export class MediaRepo {
  constructor(private readonly db: Db) {}

  /**
   * Media to download that a stored guide needs `at` exactly (the downloader takes what is always needed
   * first), by rank: library pictures, then step pictures, then videos and documents (migration 0010).
   */
  pending(limit: number, maxAttempts: number, at: NeededAt): PendingMedia[] {
    // What the views show is read from its own index (migration 0021): asked after every few guides
    // stored, it no longer walks the pending zoom variants of every guide.
    const shown = at === 'always' ? 'AND m.zoom_only = 0' : '';
    return sql(
      this.db,
      `SELECT m.url, m.attempts, m.rank FROM media m WHERE m.status != 'done' ${shown} AND m.attempts < ?
       AND EXISTS (SELECT 1 FROM media_refs r WHERE r.url = m.url AND r.needed_at = ?)
       ORDER BY m.rank, m.rowid LIMIT ?`,
    ).all(maxAttempts, at, limit) as PendingMedia[];
  }

  /** The same, of one guide only (a guide the technician needs now: sync/keep-now.ts). */
  pendingOf(guideid: number, limit: number, maxAttempts: number, at: NeededAt): PendingMedia[] {
    return sql(
      this.db,
      `SELECT m.url, m.attempts, m.rank FROM media_refs r JOIN media m ON m.url = r.url
       WHERE r.guideid = ? AND r.needed_at = ? AND m.status != 'done' AND m.attempts < ?
       ORDER BY m.rank, m.rowid LIMIT ?`,
    ).all(guideid, at, maxAttempts, limit) as PendingMedia[];
  }

  /** Media the stored guides need at this picture quality that are not downloaded yet. */
  pendingCount(quality: PictureQuality): number {
    return (
      sql(this.db, `SELECT count(*) AS n FROM media m WHERE status != 'done' AND ${NEEDED}`).get(neededAt(quality)) as {
        n: number;
      }
    ).n;
  }

  /**
   * A row to download for every zoom variant of this quality a stored guide has (eviction forgets rows,
   * and a variant is stored only while its quality is chosen).
   */
  ensureRows(quality: PictureQuality): void {
    const at = zoomVariant(quality);
    if (at)
      sql(
        this.db,
        `INSERT OR IGNORE INTO media (url, status, zoom_only)
         SELECT url, 'pending', NOT EXISTS (SELECT 1 FROM media_refs a WHERE a.url = r.url AND a.needed_at = 'always')
         FROM media_refs r WHERE needed_at = ?`,
      ).run(at);
  }

  /**
   * The zoom variant of a quality across the stored guides: how many pictures, how many and how much of them stored.
   */
  zoomStats(at: 'large' | 'original'): { pictures: number; stored: number; storedBytes: number } {
    return sql(
      this.db,
      `SELECT count(*) AS pictures, count(m.url) AS stored, coalesce(sum(m.bytes), 0) AS storedBytes
       FROM (SELECT DISTINCT url FROM media_refs WHERE needed_at = ?) r
       LEFT JOIN media m ON m.url = r.url AND m.status = 'done'`,
    ).get(at) as { pictures: number; stored: number; storedBytes: number };
  }

  /**
   * A few zoom variants of this quality not downloaded yet, spread
   * over the guides: what a size estimate asks the site about.
   */
  zoomSample(at: 'large' | 'original', limit: number): string[] {
    return (
      sql(
        this.db,
        `SELECT s.url FROM (SELECT guideid, min(url) AS url FROM media_refs WHERE needed_at = ? GROUP BY guideid) s
         WHERE NOT EXISTS (SELECT 1 FROM media m WHERE m.url = s.url AND m.status = 'done') LIMIT ?`,
      ).all(at, limit) as { url: string }[]
    ).map((row) => row.url);
  }

  /** Whether a stored guide names this URL, in any variant (what the media route may fetch from the site). */
  isReferenced(url: string): boolean {
    return sql(this.db, 'SELECT 1 FROM media_refs WHERE url = ? LIMIT 1').get(url) !== undefined;
  }

  /** The first stored guide that uses this URL (by guideid), to name where a file that did not come belongs. */
  firstUser(url: string): { guideid: number; title: string } | undefined {
    return sql(
      this.db,
      'SELECT g.guideid, g.title FROM media_refs r JOIN guides g ON g.guideid = r.guideid WHERE r.url = ? ' +
        'ORDER BY g.guideid LIMIT 1',
    ).get(url) as { guideid: number; title: string } | undefined;
  }

  markDone(url: string, stored: StoredMedia, now: number): void {
    sql(
      this.db,
      "UPDATE media SET status = 'done', file = ?, mime = ?, bytes = ?, error = NULL, last_used = ? WHERE url = ?",
    ).run(stored.file, stored.mime, stored.bytes, now, url);
  }

  markFailed(url: string, error: string): void {
    sql(this.db, "UPDATE media SET status = 'failed', attempts = attempts + 1, error = ? WHERE url = ?").run(
      error,
      url,
    );
  }

  /** Every URL stored under this content name goes back to be downloaded (its copy here was damaged). */
  requeueFile(file: string, error: string): number {
    const requeue = "UPDATE media SET status = 'pending', file = NULL, attempts = 0, error = ? WHERE file = ?";
    return sql(this.db, requeue).run(error, file).changes;
  }

  /** Failed downloads get another chance at the next sync. */
  resetAttempts(): void {
    sql(this.db, "UPDATE media SET attempts = 0 WHERE status = 'failed'").run();
  }

  lookup(url: string): StoredMedia | undefined {
    return sql(this.db, "SELECT file, mime, bytes FROM media WHERE url = ? AND status = 'done'").get(url) as
      StoredMedia | undefined;
  }

  /**
   * False when every guide that uses this file is one the reader may not see (a private guide's pictures stay with it).
   */
  readable(url: string, reader: GuideReader | null): boolean {
    const readable = readableBy(reader);
    const row = sql(
      this.db,
      `SELECT count(*) AS refs, count(*) FILTER (WHERE ${readable.clause}) AS readable
       FROM media_refs r LEFT JOIN guides ON guides.guideid = r.guideid WHERE r.url = ?`,
    ).get(...readable.params, url) as { refs: number; readable: number };
    return row.refs === 0 || row.readable > 0;
  }

  touch(url: string, now: number): void {
    sql(this.db, 'UPDATE media SET last_used = ? WHERE url = ?').run(now, url);
  }

  usage(): { bytes: number; files: number } {
    return sql(
      this.db,
      "SELECT coalesce(sum(bytes), 0) AS bytes, count(DISTINCT file) AS files FROM media WHERE status = 'done'",
    ).get() as {
      bytes: number;
      files: number;
    };
  }

  /** Downloaded media no stored guide needs at this picture quality, least recently used first. */
  evictable(limit: number, quality: PictureQuality): { url: string; file: string; bytes: number }[] {
    return sql(
      this.db,
      `SELECT url, file, bytes FROM media m WHERE status = 'done' AND NOT ${NEEDED} ORDER BY last_used LIMIT ?`,
    ).all(neededAt(quality), limit) as { url: string; file: string; bytes: number }[];
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
       WHERE status = 'done' AND mime LIKE 'image/%' AND bytes <= ?
         AND NOT EXISTS (SELECT 1 FROM pictures.picture p WHERE p.name = media.file)`,
    ).run(pictureMaxBytes).changes;
  }

  /** Rows that no guide names (in any variant) and that hold no file: left over from guides that changed. */
  pruneOrphans(): void {
    sql(
      this.db,
      "DELETE FROM media WHERE status != 'done' AND NOT EXISTS (SELECT 1 FROM media_refs r WHERE r.url = media.url)",
    ).run();
  }
}
