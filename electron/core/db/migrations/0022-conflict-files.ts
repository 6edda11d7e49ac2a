import type Database from 'better-sqlite3';

/**
 * The file a conflict's value names (issue 29's walks): a photo saved on a field the site's revised form
 * dropped, or on a deleted guide, was kept in a conflict whose value was null, so its card said "(empty)"
 * and offered nothing to save; the photo stayed in the attachments folder, never sent and shown nowhere.
 * `attachment_id` names the session's attachment the card shows and saves a copy of.
 */
export function up(db: Database.Database): void {
  db.exec(`ALTER TABLE conflicts ADD COLUMN attachment_id TEXT;`);
}
