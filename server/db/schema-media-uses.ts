import type { SchemaModule } from './types.ts';

const GUIDE_MEDIA = `
  INSERT OR IGNORE INTO media_uses (kind, mediaid, guideid)
    SELECT 'image', NEW.imageid, NEW.guideid WHERE NEW.imageid IS NOT NULL;
  INSERT OR IGNORE INTO media_uses (kind, mediaid, guideid)
    SELECT 'document', d.value, NEW.guideid FROM json_each(NEW.documents) d;`;

const STEP_MEDIA = `
  INSERT OR IGNORE INTO media_uses (kind, mediaid, guideid)
    SELECT 'image', i.value, st.guideid FROM steps st, json_each(NEW.media, '$.imageids') i
    WHERE st.stepid = NEW.stepid AND NEW.media_type = 'image';
  INSERT OR IGNORE INTO media_uses (kind, mediaid, guideid)
    SELECT 'video', json_extract(NEW.media, '$.videoid'), st.guideid FROM steps st
    WHERE st.stepid = NEW.stepid AND NEW.media_type = 'video';`;

/**
 * Which guides show each image, video and document: what access to a media file follows (media/access.ts).
 * Kept by triggers on the guide and step revisions, whoever writes them (every revision's media count),
 * and filled from the guides already stored when a site file made before it first opens.
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

      CREATE TRIGGER guide_revision_media AFTER INSERT ON guide_revisions BEGIN ${GUIDE_MEDIA} END;
      CREATE TRIGGER guide_revision_media_changed AFTER UPDATE OF imageid, documents ON guide_revisions
        BEGIN ${GUIDE_MEDIA} END;
      CREATE TRIGGER step_revision_media AFTER INSERT ON step_revisions BEGIN ${STEP_MEDIA} END;
      CREATE TRIGGER step_revision_media_changed AFTER UPDATE OF media, media_type ON step_revisions
        BEGIN ${STEP_MEDIA} END;

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
