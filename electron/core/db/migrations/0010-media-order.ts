import type Database from 'better-sqlite3';

/**
 * The order media are downloaded in (issue 10's thumbnails, issue 17's lanes). `rank` 0: a library row's
 * picture, 1: what a guide's steps show, 2: videos and documents. The downloader takes them by rank,
 * then in the order they were met: every row of the library gets its picture before a lane waits on a
 * video, and a slow video no longer holds back the pictures of the guides stored after it.
 *
 * Rows stored before this version keep rank 1 until their guide is stored again.
 */
export function up(db: Database.Database): void {
  db.exec(`
    ALTER TABLE media ADD COLUMN rank INTEGER NOT NULL DEFAULT 1 CHECK (rank IN (0, 1, 2));
    CREATE INDEX media_to_fetch ON media(rank) WHERE status != 'done';
  `);
}
