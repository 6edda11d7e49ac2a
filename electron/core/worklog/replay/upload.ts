import type { z } from 'zod';
import { classify } from '../../api/failure.ts';
import { findUploads, uploadMedia } from '../../api/user-media-api.ts';
import { checkForDoubles, lookLater, nextLook } from './doubles.ts';
import { attachedName, keptBytesRead, keptFileProblem, refusedFileProblem } from '../attachments.ts';
import { isEditable } from '../../../shared/worklog.ts';
import { uploadPayload } from './payloads.ts';
import { missingHere, worklogAction, type WorklogHandler } from './context.ts';

/**
 * An upload is not idempotent either: when an earlier attempt may have landed, our own file name (it
 * carries the attachment's id) is looked for among the user's media, later and longer while it is not
 * there (doubles.ts), before the bytes are sent again; then the site is checked for a second copy.
 * A file gone from this computer, or changed on its disk since it was saved (attachments.ts), is not sent.
 * A file the site will not take (larger than it accepts, of a kind it does not take: 413, 415, 400) is said
 * with the site's words and what the technician can do, not only the site's words: before, "The file is
 * larger than 25 MiB" alone, and the step said the file "uploads when online".
 */
const replayUpload: WorklogHandler<z.infer<typeof uploadPayload>> = async (ctx, row, payload) => {
  const attachment = ctx.sessions.attachment(payload.attachmentId);
  if (!attachment) return missingHere('attached file record');
  if (attachment.serverItemid !== null) {
    ctx.outbox.remove(row.id);
    ctx.mayLetGo(attachment.id);
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
      ctx.mayLetGo(attachment.id);
      return { type: 'done' };
    }
    const look = nextLook(ctx, row);
    if (look !== null) return lookLater(look, `the file ${attachment.uploadName}`);
  }
  const kept = await keptBytesRead(ctx.attachmentsDir, attachment);
  // Whether the session can still take another file in its place (what the technician is told to do).
  const sessionOpen = () => {
    const status = ctx.sessions.state(payload.sessionId)?.status;
    return status !== undefined && isEditable(status);
  };
  if (!kept.ok)
    return { type: 'failed', message: keptFileProblem(attachedName(attachment), kept.problem, sessionOpen()) };
  if (row.unknownOutcome) ctx.transaction(() => ctx.outbox.sendingAgain(row.id));
  let itemid: number;
  try {
    itemid = await uploadMedia(ctx.transport, attachment.uploadName, new Uint8Array(kept.bytes), ctx.uploads);
  } catch (error) {
    const failure = classify(error);
    if (failure.kind !== 'refused') throw error;
    const words = failure.words ?? failure.message;
    return { type: 'failed', message: refusedFileProblem(attachedName(attachment), words, sessionOpen()) };
  }
  ctx.transaction(() => {
    ctx.sessions.attachmentUploaded(attachment.id, itemid);
    ctx.outbox.remove(row.id);
    if (row.unknownOutcome) checkForDoubles(ctx, check);
  });
  // The site has it: a video or a document is not kept here any more (kept-files.ts).
  ctx.mayLetGo(attachment.id);
  return { type: 'done' };
};

/** A file attached to a step field, uploaded to the user's media before the value that refers to it. */
export const uploadAction = worklogAction('upload', uploadPayload, replayUpload, {
  describe: () => 'Upload an attached file',
});
