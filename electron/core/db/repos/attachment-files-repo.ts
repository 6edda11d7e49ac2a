import { isPhoto } from '../../../shared/field-values.ts';
import { chainKeySql } from '../chains.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

/** The files of the attachments (sessions-repo.ts), as the attachments folder keeps them (worklog/kept-files.ts). */
export class AttachmentFilesRepo {
  constructor(private readonly db: Db) {}

  /**
   * The attached file's name in the attachments folder once the work no longer needs it there, else null:
   * the site has it and no step shows it as a photo (the session report reads photos back from this
   * computer; a video or a document is never read back), or it never left and was replaced or cleared, and
   * nothing queued names it (an upload still out, a save waiting behind it).
   */
  fileNoLongerNeeded(id: string): string | null {
    const row = sql(
      this.db,
      `SELECT a.file, a.mime, a.server_itemid AS itemid,
         EXISTS (SELECT 1 FROM work_values v WHERE v.session_id = a.session_id AND v.attachment_id = a.id) AS shown,
         EXISTS (SELECT 1 FROM outbox o WHERE o.chain = ${chainKeySql('session', 'a.session_id')}
                 AND instr(o.payload, a.id) > 0) AS queued
       FROM attachments a WHERE a.id = ?`,
    ).get(id) as { file: string; mime: string; itemid: number | null; shown: 0 | 1; queued: 0 | 1 } | undefined;
    if (!row) return null;
    const needed = row.itemid === null ? row.shown === 1 || row.queued === 1 : row.shown === 1 && isPhoto(row.mime);
    return needed ? null : row.file;
  }

  /** Every attachment's id and its file's name in the attachments folder. */
  all(): { id: string; file: string }[] {
    return sql(this.db, 'SELECT id, file FROM attachments').all() as { id: string; file: string }[];
  }
}
