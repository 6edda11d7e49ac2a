import { chainKey } from '../../db/chains.ts';
import type { Store } from '../../db/store.ts';
import { sessionChain } from '../session-chain.ts';
import { stepDataAction } from './step-data.ts';
import { uploadAction } from './upload.ts';

/**
 * A file the technician replaced (or cleared) before it reached the site is not sent: its upload, waiting
 * or refused (a file damaged on this computer's disk, one the site would not take), is dropped, and so is
 * its value in the step data waiting behind it. Before, after "Attach it again" the new photo and all
 * that followed it in the session (its finish) waited behind the refused upload of the old one until the
 * technician discarded it in the sync centre, then behind the old value's step data ("An attached file
 * was never uploaded"). An upload out now is left to end: it may land, and its value then goes before
 * the new one, which replaces it on the site.
 */
export function dropUnsentFile(
  store: Pick<Store, 'sessions' | 'outbox'>,
  sessionId: string,
  attachmentId: string,
): void {
  const attachment = store.sessions.attachment(attachmentId);
  if (!attachment || attachment.serverItemid !== null) return;
  const rows = store.outbox.inChain(chainKey(sessionChain(sessionId)));
  const ofFile = (row: (typeof rows)[number]) => {
    const read = row.kind === uploadAction.name ? uploadAction.parse(row) : null;
    return read?.ok === true && read.payload.attachmentId === attachmentId;
  };
  const uploads = rows.filter(ofFile);
  if (uploads.some((row) => row.state === 'in_flight')) return;
  for (const row of uploads) store.outbox.remove(row.id);
  for (const row of rows) {
    if (row.kind !== stepDataAction.name || row.state === 'in_flight') continue;
    const read = stepDataAction.parse(row);
    if (!read.ok || !read.payload.fields.some((f) => f.attachmentId === attachmentId)) continue;
    const fields = read.payload.fields.filter((f) => f.attachmentId !== attachmentId);
    if (fields.length === 0) {
      store.outbox.remove(row.id);
      continue;
    }
    store.outbox.replacePayload(row.id, stepDataAction, { ...read.payload, fields }, row.actedAt);
    // Refused for want of that file (its upload discarded): the rest of its values go now.
    store.outbox.retry(row.id);
  }
}
