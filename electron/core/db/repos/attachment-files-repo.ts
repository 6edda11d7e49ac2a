import { chainKeySql } from '../chains.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

const SHOWN = 'EXISTS (SELECT 1 FROM work_values v WHERE v.session_id = a.session_id AND v.attachment_id = a.id)';
const QUEUED = `EXISTS (SELECT 1 FROM outbox o WHERE o.chain = ${chainKeySql('session', 'a.session_id')}
  AND instr(o.payload, a.id) > 0)`;
const IN_CONFLICT = 'EXISTS (SELECT 1 FROM conflicts c WHERE c.attachment_id = a.id AND c.settled IS NULL)';
/**
 * An attached file the work no longer needs on this computer: the site has it and no step shows it as a photo
 * (the session report reads photos back from this computer; a video or a document is never read back: the
 * SQL form of shared/field-values.ts `isPhoto`), or it never left and was replaced or cleared; either way
 * nothing queued names it (an upload still out; a save waiting behind it, which puts an uploaded file in the
 * site's record of the session) and no open conflict holds it (a save the site's revised form no longer
 * took: its card shows the file and saves a copy). Uploaded alone, a video was let go before its save, and a
 * save that then met a dropped field left it in the site's media only, shown nowhere.
 */
const NOT_NEEDED = `NOT (CASE WHEN a.server_itemid IS NULL THEN ${SHOWN} OR ${QUEUED}
  ELSE (${SHOWN} AND a.mime LIKE 'image/%') OR ${QUEUED} END OR ${IN_CONFLICT})`;

/** The files of the attachments (sessions-repo.ts), as the attachments folder keeps them (worklog/kept-files.ts). */
export class AttachmentFilesRepo {
  constructor(private readonly db: Db) {}

  /** The attached file's name in the attachments folder once the work no longer needs it there, else null. */
  fileNoLongerNeeded(id: string): string | null {
    const row = sql(this.db, `SELECT a.file FROM attachments a WHERE a.id = ? AND ${NOT_NEEDED}`).get(id) as
      { file: string } | undefined;
    return row?.file ?? null;
  }

  /** Every attachment whose file the work no longer needs, with its file's name: one read, at a start. */
  noLongerNeeded(): { id: string; file: string }[] {
    return sql(this.db, `SELECT a.id, a.file FROM attachments a WHERE ${NOT_NEEDED}`).all() as {
      id: string;
      file: string;
    }[];
  }
}
