import type Database from 'better-sqlite3';

/**
 * Pictures for zoom (issue 10). A stored guide records every variant of its step pictures it could
 * need, each marked with when it is needed: `always` (what the lists and steps show, as before) or only
 * at the picture quality `large` or `original`. The chosen quality is then a filter, not a re-fetch of
 * every guide: choosing it downloads what it marks, and what another quality marks becomes evictable.
 *
 * Guides stored before this version get their `large` and `original` step pictures from their stored
 * detail here, and a pending media row each (downloaded only once their quality is chosen).
 */
export function up(db: Database.Database): void {
  db.exec(`
    ALTER TABLE media_refs ADD COLUMN needed_at TEXT NOT NULL DEFAULT 'always'
      CHECK (needed_at IN ('always', 'large', 'original'));
    CREATE INDEX media_refs_zoom ON media_refs(needed_at, url) WHERE needed_at != 'always';

    INSERT OR IGNORE INTO media_refs (guideid, url, needed_at)
    SELECT g.guideid, json_extract(image.value, '$.' || variant.name), variant.name
    FROM guides g
    JOIN guide_revisions r ON r.guideid = g.guideid AND r.revisionid = g.stored_revisionid
    JOIN json_each(r.detail, '$.steps') step
    JOIN json_each(step.value, '$.media.images') image
    JOIN (SELECT 'large' AS name UNION ALL SELECT 'original') variant
    WHERE json_extract(step.value, '$.media.type') = 'image'
      AND json_type(image.value, '$.' || variant.name) = 'text'
      AND json_extract(image.value, '$.' || variant.name) != '';

    INSERT OR IGNORE INTO media (url, status) SELECT url, 'pending' FROM media_refs WHERE needed_at != 'always';
  `);
}
