import type { SchemaModule } from './types.ts';

/**
 * Which guides show each image, video and document: what access to a media file follows (media/access.ts).
 * Kept as guides are written (guides/write.ts), every revision's media included; filled from the guides
 * already stored when a site file made before it first opens.
 */
export const mediaUsesSchema: SchemaModule = {
  name: 'media-uses',
  up(db) {
    db.exec(`
      CREATE TABLE media_uses (
        kind TEXT NOT NULL CHECK (kind IN ('image', 'video', 'document')),
        mediaid INTEGER NOT NULL,
        guideid INTEGER NOT NULL REFERENCES guides(guideid) ON DELETE CASCADE,
        PRIMARY KEY (kind, mediaid, guideid)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX media_uses_guide ON media_uses(guideid);
      CREATE INDEX categories_image ON categories(imageid);
      CREATE INDEX videos_poster ON videos(imageid);

      INSERT OR IGNORE INTO media_uses (kind, mediaid, guideid)
        SELECT 'image', imageid, guideid FROM guide_revisions WHERE imageid IS NOT NULL;
      INSERT OR IGNORE INTO media_uses (kind, mediaid, guideid)
        SELECT 'document', d.value, r.guideid FROM guide_revisions r, json_each(r.documents) d;
      INSERT OR IGNORE INTO media_uses (kind, mediaid, guideid)
        SELECT 'image', i.value, st.guideid
        FROM step_revisions s JOIN steps st ON st.stepid = s.stepid, json_each(s.media, '$.imageids') i
        WHERE s.media_type = 'image';
      INSERT OR IGNORE INTO media_uses (kind, mediaid, guideid)
        SELECT 'video', json_extract(s.media, '$.videoid'), st.guideid
        FROM step_revisions s JOIN steps st ON st.stepid = s.stepid
        WHERE s.media_type = 'video';
    `);
  },
};
