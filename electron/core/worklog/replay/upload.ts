import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { findUploads, uploadMedia } from '../../api/user-media-api.ts';
import { checkForDoubles, lookLater, nextLook } from './doubles.ts';
import { uploadPayload } from './payloads.ts';
import { missingHere, worklogAction, type WorklogHandler } from './context.ts';

/**
 * An upload is not idempotent either: when an earlier attempt may have landed, our own file name (it
 * carries the attachment's id) is looked for among the user's media, later and longer while it is not
 * there (doubles.ts), before the bytes are sent again; then the site is checked for a second copy.
 */
const replayUpload: WorklogHandler<z.infer<typeof uploadPayload>> = async (ctx, row, payload) => {
  const attachment = ctx.sessions.attachment(payload.attachmentId);
  if (!attachment) return missingHere('attached file record');
  if (attachment.serverItemid !== null) {
    ctx.outbox.remove(row.id);
    return { type: 'done' };
  }
  const check = { of: 'upload', attachmentId: attachment.id, since: ctx.nowMs() } as const;
  if (row.unknownOutcome) {
    const [landed, ...more] = await findUploads(ctx.transport, attachment.uploadName, ctx.uploads);
    if (landed) {
      ctx.transaction(() => {
        ctx.sessions.attachmentUploaded(attachment.id, landed.id);
        ctx.outbox.remove(row.id);
        checkForDoubles(ctx, check, more.length > 0);
      });
      return { type: 'done' };
    }
    const look = nextLook(ctx, row);
    if (look !== null) return lookLater(look, `the file ${attachment.uploadName}`);
  }
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path.join(ctx.attachmentsDir, attachment.file));
  } catch {
    return { type: 'failed', message: `The attached file ${attachment.uploadName} is missing from this computer.` };
  }
  if (row.unknownOutcome) ctx.transaction(() => ctx.outbox.sendingAgain(row.id));
  const itemid = await uploadMedia(ctx.transport, attachment.uploadName, new Uint8Array(bytes), ctx.uploads);
  ctx.transaction(() => {
    ctx.sessions.attachmentUploaded(attachment.id, itemid);
    ctx.outbox.remove(row.id);
    if (row.unknownOutcome) checkForDoubles(ctx, check);
  });
  return { type: 'done' };
};

/** A file attached to a step field, uploaded to the user's media before the value that refers to it. */
export const uploadAction = worklogAction('upload', uploadPayload, replayUpload, {
  describe: () => 'Upload an attached file',
});
