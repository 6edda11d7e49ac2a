import type Database from 'better-sqlite3';

/**
 * The media still to download that a view shows, apart from the zoom variants (issue 29). A stored
 * guide records the `large` and `original` variant of each step picture as pending rows (migration
 * 0006), so a library of 1,000 guides holds 12,000 of them, most never downloaded at the chosen quality.
 * The downloader's question "what the views show, next" (media-repo.ts `pending`) walked all of them
 * each time it asked, while guides were still arriving: 0.6–1.5 ms an ask on a 1,000-guide site, up to
 * 0.8 s of its sync's main thread (0.3 ms an ask since).
 *
 * `zoom_only` is 1 for a file no stored guide has shown as what a view shows (only as a zoom variant),
 * and kept at 0 once one has (as `rank` keeps its earliest value): the index of what the views show
 * holds the other files only. Rows of earlier versions take it from their references here.
 */
export function up(db: Database.Database): void {
  db.exec(`
    ALTER TABLE media ADD COLUMN zoom_only INTEGER NOT NULL DEFAULT 0 CHECK (zoom_only IN (0, 1));
    UPDATE media SET zoom_only = 1
      WHERE NOT EXISTS (SELECT 1 FROM media_refs r WHERE r.url = media.url AND r.needed_at = 'always');
    CREATE INDEX media_to_show ON media(rank) WHERE status != 'done' AND zoom_only = 0;
  `);
}
