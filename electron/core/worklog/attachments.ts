import fs from 'node:fs';
import path from 'node:path';
import type { AttachmentData } from '../../contract.ts';
import type { Store } from '../db/store.ts';
import { AppFailure } from '../result.ts';

/**
 * A file attached to a step field, read back from this computer (the session report shows the photos
 * with the site stopped). Only the technician whose session it is may read it.
 */
export function readAttachment(
  store: Store,
  attachmentsDir: string,
  technician: number,
  attachmentId: string,
): AttachmentData {
  const attachment = store.sessions.attachment(attachmentId);
  if (!attachment || store.sessions.technicianOf(attachment.sessionId) !== technician) {
    throw new AppFailure('not_found', 'There is no such attached file on this computer.', { attachmentId });
  }
  const file = path.join(attachmentsDir, attachment.file);
  if (!fs.existsSync(file))
    throw new AppFailure('not_found', 'The attached file is no longer on this computer.', { attachmentId });
  const name = attachment.uploadName.replace(/^fg-[0-9a-f-]{36}-/, '');
  return { name, mime: attachment.mime, dataBase64: fs.readFileSync(file).toString('base64') };
}
