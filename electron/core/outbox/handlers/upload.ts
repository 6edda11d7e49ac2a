import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { findUpload, uploadMedia } from '../../api/user-media-api.ts';
import type { uploadPayload } from '../payloads.ts';
import { missingHere, type Handler } from '../replay-context.ts';

/**
 * An upload is not idempotent either: when an earlier attempt may have landed, look for our own file
 * name (it carries the attachment's id) among the user's media before sending the bytes again.
 */
export const replayUpload: Handler<z.infer<typeof uploadPayload>> = async (ctx, row, payload) => {
  const attachment = ctx.sessions.attachment(payload.attachmentId);
  if (!attachment) return missingHere('attached file record');
  if (attachment.serverItemid !== null) {
    ctx.outbox.remove(row.id);
    return { type: 'done' };
  }
  if (row.unknownOutcome) {
    const id = await findUpload(ctx.transport, attachment.uploadName, ctx.uploads);
    if (id !== null) {
      ctx.transaction(() => {
        ctx.sessions.attachmentUploaded(attachment.id, id);
        ctx.outbox.remove(row.id);
      });
      return { type: 'done' };
    }
  }
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path.join(ctx.attachmentsDir, attachment.file));
  } catch {
    return { type: 'failed', message: `The attached file ${attachment.uploadName} is missing from this computer.` };
  }
  const itemid = await uploadMedia(ctx.transport, attachment.uploadName, new Uint8Array(bytes), ctx.uploads);
  ctx.transaction(() => {
    ctx.sessions.attachmentUploaded(attachment.id, itemid);
    ctx.outbox.remove(row.id);
  });
  return { type: 'done' };
};
